// The top of the Train view: the round timer (round, phase, time to the next deadline, ticking every
// second, and where the round clock comes from when it is not the swarm config's), the model the swarm
// learns, and the round history with its export.
import { learningStore } from '../../host/stores/learning-store.ts'
import { type LearningPhase } from '../../core/learning/learning-state.ts'
import { settingsStore } from '../../host/stores/settings-store.ts'
import { swarmStore } from '../../host/stores/swarm-store.ts'
import { Card } from '../common/Card.tsx'
import { CopyButton } from '../common/CopyButton.tsx'
import { downloadFile } from '../../host/download-file.ts'
import { formatCompact } from '../../host/format.ts'
import { useNow } from '../use-now.ts'
import { shortHash } from '../../host/verify/verify-files.ts'
import { exportFileName, metricsToJson, roundsToCsv } from './metrics-export.ts'
import { PHASE_LABELS, PHASE_TONES, formatCountdown, nextDeadline } from './round-timer.ts'
import { lastRunRound, roundSignalNote } from './round-signal.ts'
import { useLearningStore } from '../stores.ts'

/** Its own component: the once-a-second tick re-renders this line only. */
function Countdown() {
  const round = useLearningStore((s) => s.round)
  const roundEndsAt = useLearningStore((s) => s.roundEndsAt)
  const windowClosesAt = useLearningStore((s) => s.windowClosesAt)
  const deadline = nextDeadline({ round, roundEndsAt, windowClosesAt }, useNow())
  if (!deadline) return <span className="muted">waiting for the round clock</span>
  return (
    <span className="train-countdown" data-testid="train-countdown" data-what={deadline.what}>
      {deadline.what} in <strong>{formatCountdown(deadline.remainingMs)}</strong>
    </span>
  )
}

/** Phases of a running round loop: only then is there a deadline to count down to. */
const COUNTING: ReadonlySet<LearningPhase> = new Set(['sampling', 'collecting', 'training', 'waiting'])

function RoundCard() {
  const phase = useLearningStore((s) => s.phase)
  const round = useLearningStore((s) => s.round)
  const clockNote = useLearningStore((s) => s.clockNote)
  const lastRow = useLearningStore((s) => lastRunRound(s.rounds))
  const signal = lastRow && roundSignalNote(lastRow)
  return (
    <Card title="Round" className="train-round-card" testId="train-round-card">
      <div className="train-round-line">
        <span className={`train-round ${round < 0 ? 'none' : ''}`} data-testid="train-round">
          {round < 0 ? '—' : round}
        </span>
        <span className={`pill tone-${PHASE_TONES[phase]}`} data-testid="train-phase" data-phase={phase}>
          {PHASE_LABELS[phase]}
        </span>
      </div>
      {COUNTING.has(phase) && <Countdown />}
      {signal && (
        <p
          className={`train-note ${signal.empty ? 'text-warn' : 'muted'}`}
          data-testid="train-signal-note"
          data-empty={signal.empty}
        >
          {signal.text}
        </p>
      )}
      {clockNote && (
        <p
          className={`train-note ${clockNote.warn ? 'text-warn' : 'muted'}`}
          data-testid="train-clock-note"
          data-warn={clockNote.warn}
        >
          {clockNote.text}
        </p>
      )}
    </Card>
  )
}

function ModelCard() {
  const model = useLearningStore((s) => s.model)
  return (
    <Card title="Model" className="train-model-card" testId="train-model">
      {model ? (
        <dl className="kv train-kv">
          <dt>Name</dt>
          <dd
            data-testid="train-model-name"
            title={model.modelId && `its receipts name the model ${model.modelId}`}
          >
            {model.name}
          </dd>
          <dt>Parameters</dt>
          <dd data-testid="train-model-parameters" title={model.parameters.toLocaleString()}>
            {formatCompact(model.parameters)}
          </dd>
          <dt>Weights</dt>
          <dd className="id-line">
            <code data-testid="train-weights-hash" title={model.weightsHash}>
              {shortHash(model.weightsHash)}
            </code>
            <CopyButton text={model.weightsHash} testId="copy-weights-hash" />
          </dd>
          <dt>Policy</dt>
          <dd data-testid="train-policy-version">v{model.policyVersion}</dd>
        </dl>
      ) : (
        <p className="hint">No model loaded yet.</p>
      )}
    </Card>
  )
}

function HistoryCard() {
  const rounds = useLearningStore((s) => s.rounds)
  const evals = useLearningStore((s) => s.evals)
  const skipped = rounds.filter((r) => r.skipped !== undefined).length
  const save = (ext: 'csv' | 'json') => {
    const state = learningStore.getState()
    const peerId = swarmStore.getState().self?.peerId ?? null
    const at = Date.now()
    const body =
      ext === 'csv'
        ? roundsToCsv(state.rounds, state.evals)
        : metricsToJson(state, { swarmId: settingsStore.getState().swarmId, peerId, exportedAt: at })
    downloadFile(exportFileName(peerId, at, ext), body, ext === 'csv' ? 'text/csv' : 'application/json')
  }
  return (
    <Card title="History" className="train-history-card" testId="train-history">
      <dl className="kv train-kv">
        <dt>Rounds</dt>
        <dd>
          <strong data-testid="train-rounds-count">{rounds.length - skipped}</strong> run
          {skipped > 0 && (
            <span className="text-warn" data-testid="train-skipped-count">
              {' '}
              · {skipped} skipped
            </span>
          )}
        </dd>
        <dt>Evaluations</dt>
        <dd data-testid="train-evals-count">{evals.length}</dd>
      </dl>
      <div className="button-row">
        <button
          type="button"
          className="btn btn-small"
          data-testid="train-export-csv"
          disabled={rounds.length === 0}
          onClick={() => save('csv')}
          title="Every round with its rewards, loss, speed and the evaluation after it"
        >
          Export CSV
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid="train-export-json"
          disabled={rounds.length === 0}
          onClick={() => save('json')}
          title="The model, every round and every evaluation as JSON"
        >
          Export JSON
        </button>
      </div>
    </Card>
  )
}

export function TrainHeader() {
  return (
    <div className="train-header">
      <RoundCard />
      <ModelCard />
      <HistoryCard />
    </div>
  )
}
