// One transaction's progress as a line: signing → pending (hash) → confirmed (block), or the error
// sentence. data-phase lets tests and styles follow it.
import type { TxState } from '../../host/chain/tx-state.ts'
import { txLabel } from '../../host/chain/tx-state.ts'

const TONE: Record<TxState['phase'], string> = {
  idle: 'muted',
  confirming: 'warn',
  signing: 'warn',
  pending: 'warn',
  confirmed: 'good',
  failed: 'bad',
}

export function TxStatus({ state, testId, what }: { state: TxState; testId: string; what: string }) {
  if (state.phase === 'idle') return <div data-testid={testId} data-phase="idle" hidden />
  return (
    <div className="tx-status" data-testid={testId} data-phase={state.phase} role="status">
      <span className="tx-what">{what}</span>
      <span className={`pill tone-${TONE[state.phase]}`}>{txLabel(state)}</span>
      {'hash' in state && state.hash && (
        <code className="tx-hash" title={state.hash} data-testid={`${testId}-hash`}>
          {state.hash.slice(0, 10)}…{state.hash.slice(-8)}
        </code>
      )}
      {state.phase === 'confirmed' && (
        <span className="visually-hidden" data-testid={`${testId}-block`}>
          {String(state.blockNumber)}
        </span>
      )}
      {state.phase === 'failed' && (
        <p className="inline-error" role="alert" data-testid={`${testId}-error`}>
          {state.error}
        </p>
      )}
    </div>
  )
}
