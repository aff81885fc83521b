// The G completions of the current task: streaming while they are sampled, then each with its reward
// in parts (format + correctness + length = total) and the task's pass@1 and pass@G.
import { type CompletionResult } from '../../host/stores/solver-store.ts'
import type { RewardBreakdown } from '../../core/tasks/reward.ts'
import { Card } from '../common/Card.tsx'
import { formatCompact } from '../../host/format.ts'
import { isCorrect, isFormatted } from '../../host/solve/score-run.ts'
import { useSolverStore } from '../stores.ts'

const signed = (n: number) => (n > 0 ? `+${n.toFixed(1)}` : n.toFixed(1))
const pct = (n: number | null) => (n === null ? '—' : `${Math.round(n * 100)}%`)

const REWARD_PARTS = ['format', 'correctness', 'length'] as const

function RewardLine({ reward }: { reward: RewardBreakdown }) {
  return (
    <div className="solve-reward" data-testid="reward">
      {REWARD_PARTS.map((part) => (
        <span
          key={part}
          className="solve-reward-part"
          data-testid={`reward-${part}`}
          data-value={reward[part]}
        >
          {part} <strong>{signed(reward[part])}</strong>
        </span>
      ))}
      <span className="solve-reward-total" data-testid="reward-total" data-value={reward.total}>
        total {signed(reward.total)}
      </span>
    </div>
  )
}

function Verdict({ result }: { result: CompletionResult }) {
  const formatted = isFormatted(result.reward)
  const correct = isCorrect(result.reward)
  const tone = correct ? 'good' : formatted ? 'warn' : 'bad'
  const text = correct ? 'correct' : formatted ? 'wrong answer' : 'no answer format'
  return (
    <span
      className={`pill tone-${tone}`}
      data-testid="completion-verdict"
      data-formatted={formatted}
      data-correct={correct}
    >
      {text}
      {result.verdict && result.verdict !== 'pass' ? ` (${result.verdict})` : ''}
    </span>
  )
}

export function CompletionsPanel() {
  const run = useSolverStore((s) => s.run)
  if (!run) return null
  const phaseText = {
    generating: 'sampling…',
    scoring: 'scoring…',
    done: 'scored',
    error: 'failed',
  }[run.phase]
  return (
    <Card
      title="Completions"
      testId="completions"
      aside={
        <span
          className={`pill tone-${run.phase === 'error' ? 'bad' : run.phase === 'done' ? 'good' : 'warn'}`}
          data-testid="run-phase"
          data-phase={run.phase}
        >
          {phaseText}
        </span>
      }
    >
      <dl className="kv solve-run-stats">
        <dt>pass@1</dt>
        <dd data-testid="run-pass1">{pct(run.passAt1)}</dd>
        {run.texts.length > 1 && (
          <>
            <dt>pass@{run.texts.length}</dt>
            <dd data-testid="run-passk">{pct(run.passAtK)}</dd>
          </>
        )}
        <dt>speed</dt>
        <dd data-testid="run-tps">
          {run.tokensPerSecond === null ? '—' : `${formatCompact(run.tokensPerSecond)} tokens/s`}
          {run.firstTokenMs !== null && (
            <span className="muted"> · first token {Math.round(run.firstTokenMs)} ms</span>
          )}
        </dd>
      </dl>
      {run.error && (
        <p className="inline-error" role="alert" data-testid="run-error">
          {run.error}
        </p>
      )}
      {(run.phase !== 'error' || run.texts.some(Boolean)) && (
        <ol className="solve-completions">
          {run.texts.map((text, i) => {
            const result = run.results[i]
            return (
              <li key={i} className="solve-completion" data-testid="completion" data-sample={i}>
                <div className="solve-completion-head">
                  <span className="muted">sample {i + 1}</span>
                  {result && (
                    <>
                      <Verdict result={result} />
                      <span className="muted">
                        {result.tokens} tokens ·{' '}
                        {result.stop === 'eos'
                          ? 'ended'
                          : result.stop === 'max-tokens'
                            ? 'hit the token limit'
                            : 'stopped'}
                      </span>
                    </>
                  )}
                </div>
                <pre className="solve-completion-text" data-testid="completion-text">
                  {text || <span className="muted">…</span>}
                </pre>
                {result && <RewardLine reward={result.reward} />}
              </li>
            )
          })}
        </ol>
      )}
    </Card>
  )
}
