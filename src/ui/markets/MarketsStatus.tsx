// The feed's state above the markets: loading, not deployed, the last read error (with what kind of
// failure, on Delphi's networks), or the block read.
import { useMarketsStore, useWalletStore } from '../stores.ts'

export function MarketsStatus() {
  const phase = useMarketsStore((s) => s.phase)
  const error = useMarketsStore((s) => s.error)
  const block = useMarketsStore((s) => s.blockNumber)
  const errorTitle = useMarketsStore((s) => s.errorTitle)
  const note = useWalletStore((s) => s.deploymentNote)
  return (
    <div className="mk-status" data-testid="markets-status" data-phase={phase}>
      {phase === 'loading' && !error && <span className="muted">{note ?? 'Reading the markets…'}</span>}
      {phase === 'unavailable' && (
        <span className="muted">
          This chain has no market contracts deployed: start the stack with a chain.
        </span>
      )}
      {block !== null && (
        <span className="muted" data-testid="markets-block">
          block {String(block)}
        </span>
      )}
      {error && (
        <p className="inline-error" role="alert" data-testid="markets-error">
          {errorTitle && <strong data-testid="markets-error-title">{errorTitle}: </strong>}
          {error}
        </p>
      )}
    </div>
  )
}
