// What can go wrong talking to Delphi’s services, each as its own type so a caller (the CLI, the
// Markets view) can say what to do: fix the API key, come back online, or report a bad answer.

/** The REST API refused the key (401/403): missing, wrong, or for another network. */
export class DelphiApiKeyError extends Error {
  override name = 'DelphiApiKeyError'
}

/** A service could not be reached at all (DNS, refused connection, timeout). */
export class DelphiOfflineError extends Error {
  override name = 'DelphiOfflineError'
}

/** A service answered, but not with what its documented shape promises (or with an HTTP error). */
export class DelphiResponseError extends Error {
  override name = 'DelphiResponseError'
}

/** The market is not one this network lists, or no gateway of the network serves it. */
export class DelphiUnknownMarketError extends Error {
  override name = 'DelphiUnknownMarketError'
}
