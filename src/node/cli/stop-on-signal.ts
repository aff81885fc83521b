// Ctrl-C (SIGINT) and SIGTERM stop a long-running command gracefully and exit 0; a second signal, or a
// stop that hangs, exits at once with 1 so the user is never stuck.

/**
 * Longest a graceful stop may take: libp2p gives each connection 1 s to close and the HTTP servers wait
 * for requests in flight, so anything beyond a few seconds is a hang.
 */
const STOP_TIMEOUT_MS = 10_000

export function stopOnSignal(stop: () => Promise<void>, log: (line: string) => void = console.error): void {
  let stopping = false
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log(`${signal} again: exiting without waiting`)
      process.exit(1)
    }
    stopping = true
    log(`\n${signal}: stopping…`)
    setTimeout(() => {
      log(`still not stopped after ${STOP_TIMEOUT_MS / 1000} s: exiting anyway`)
      process.exit(1)
    }, STOP_TIMEOUT_MS).unref()
    stop().then(
      () => process.exit(0),
      (err: Error) => {
        log(`error while stopping: ${err.message}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}
