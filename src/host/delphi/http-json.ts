// One JSON request to a Delphi service with the failures told apart: unreachable (offline), a refused
// API key, an HTTP error, or a body that is not JSON. Times out so a dead host never hangs a command.
import { DelphiApiKeyError, DelphiOfflineError, DelphiResponseError } from './errors.ts'

/** A request that has not answered by then is treated as the service being unreachable. */
export const DELPHI_REQUEST_TIMEOUT_MS = 15_000

export interface JsonRequest {
  url: string
  /** what the service is, for error sentences: "Delphi’s testnet API" */
  service: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: unknown
  fetcher?: typeof fetch
  /** how to fix a refused key, e.g. "pass --api-key or set DELPHI_API_KEY" */
  keyHint?: string
}

export async function requestJson({
  url,
  service,
  method = 'GET',
  headers = {},
  body,
  fetcher = fetch,
  keyHint,
}: JsonRequest): Promise<unknown> {
  let res: Response
  try {
    res = await fetcher(url, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(DELPHI_REQUEST_TIMEOUT_MS),
    })
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message
    throw new DelphiOfflineError(
      `${service} at ${new URL(url).origin} cannot be reached (${cause}): check the connection, or point at another URL.`,
    )
  }
  if (res.status === 401 || res.status === 403)
    throw new DelphiApiKeyError(
      `${service} refused the API key (HTTP ${res.status}): it is missing, wrong, or for another network${keyHint ? `; ${keyHint}` : ''}.`,
    )
  if (!res.ok)
    throw new DelphiResponseError(`${service} answered HTTP ${res.status} for ${new URL(url).pathname}.`)
  try {
    return await res.json()
  } catch {
    throw new DelphiResponseError(
      `${service} answered ${new URL(url).pathname} with something that is not JSON.`,
    )
  }
}
