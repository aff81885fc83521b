// A one-line learning status in the header (round, phase, policy version). With `?debug` in the URL it
// also carries each finished round and each of this session's training receipts as data attributes, for
// the browser tests and benches; no other page holds them. The Train view is where learning is shown in full.
import { useLearningStore, useReceivedReceiptsStore } from './stores.ts'

const DEBUG = new URLSearchParams(location.search).has('debug')

export function LearningStatus() {
  const { phase, round, model, message } = useLearningStore()
  if (phase === 'off') return null
  const tone = phase === 'error' ? 'bad' : 'muted'
  return (
    <span
      className={`pill tone-${tone}`}
      data-testid="learning-status"
      data-phase={phase}
      data-round={round}
      data-version={model?.policyVersion ?? ''}
      title={message ?? undefined}
    >
      {phase === 'error'
        ? 'learning stopped'
        : `round ${round} · ${phase}${model ? ` · v${model.policyVersion}` : ''}`}
      {DEBUG && <DebugLists />}
    </span>
  )
}

/** The rounds and our receipts as hidden data, for tests that read them the way the page has them. */
function DebugLists() {
  const rounds = useLearningStore((s) => s.rounds)
  const received = useReceivedReceiptsStore((s) => s.receipts)
  const receipts = received.filter((r) => r.ours).map((r) => r.receipt)
  return (
    <>
      <ol hidden data-testid="learning-rounds">
        {rounds.map((r) => (
          <li
            key={r.round}
            data-round={r.round}
            data-skipped={r.skipped ?? ''}
            data-published={r.groupsPublished}
            data-heard={r.groupsHeard}
            data-refused={r.groupsRefused}
            data-ignored={r.groupsIgnored}
            data-dropped={r.groupsDropped ?? 0}
            data-local={r.trainedOn.local}
            data-external={r.trainedOn.external}
            data-version={r.policyVersion}
            data-reward={r.ownReward}
            data-weights={r.weightsHash ?? ''}
            data-chain-tip={r.chainTip ?? ''}
            data-receipt={r.receiptId ?? ''}
          />
        ))}
      </ol>
      <ol hidden data-testid="learning-receipts">
        {receipts.map((r) => (
          <li key={r.receiptHash} data-receipt={r.receiptHash} data-json={JSON.stringify(r)} />
        ))}
      </ol>
    </>
  )
}
