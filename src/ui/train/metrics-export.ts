// The Train view's export: the round history and the held-out evaluations as CSV (one row per round,
// the evaluation taken after that round joined in) and as JSON (both lists as the store keeps them,
// with the model). Pure; the view hands the text to downloadFile.
import type { EvalPoint, LearningState, RoundRow } from '../../core/learning/learning-state.ts'

type Cell = string | number | undefined

/** CSV columns: header and how to read it from a round and its evaluation. */
const COLUMNS: readonly [string, (r: RoundRow, e: EvalPoint | undefined) => Cell][] = [
  ['round', (r) => r.round],
  ['started_at', (r) => new Date(r.startedAt).toISOString()],
  ['ended_at', (r) => new Date(r.endedAt).toISOString()],
  ['skipped', (r) => r.skipped],
  // the cells of the round's own groups in slot order (exploration slots first), space-separated
  ['cells', (r) => r.drawn?.map((d) => d.cell).join(' ')],
  ['own_reward', (r) => r.ownReward],
  ['swarm_reward', (r) => r.swarmReward],
  ['groups_published', (r) => r.groupsPublished],
  ['groups_heard', (r) => r.groupsHeard],
  ['groups_refused', (r) => r.groupsRefused],
  ['groups_ignored', (r) => r.groupsIgnored],
  // messages and groups dropped before judging (late, another round, a full pool, over a sender's share)
  ['groups_dropped', (r) => r.groupsDropped],
  ['trained_local', (r) => r.trainedOn.local],
  ['trained_external', (r) => r.trainedOn.external],
  // how many of the step's groups had rewards that differ (the others have zero advantage)
  ['trained_informative', (r) => r.trainedOn.informative],
  ['loss', (r) => r.loss],
  // empty unless the swarm trains with a KL penalty (learning.grpo.klBeta)
  ['kl', (r) => r.kl],
  // the step's gradient norm before clipping: the on-policy loss is zero-mean, this is what moved the weights
  ['grad_norm', (r) => r.gradNorm],
  ['tokens_per_second', (r) => r.tokensPerSecond],
  ['step_ms', (r) => r.stepMs],
  ['policy_version', (r) => r.policyVersion],
  ['weights_hash', (r) => r.weightsHash],
  ['receipt_id', (r) => r.receiptId],
  ['chain_tip', (r) => r.chainTip],
  ['eval_pass1', (_, e) => e?.pass1],
  ['eval_tasks', (_, e) => e?.tasks],
]

/** RFC 4180: quoted when it holds a comma, quote or line break; quotes doubled. Empty when undefined. */
export function csvCell(value: Cell): string {
  if (value === undefined) return ''
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export function roundsToCsv(rounds: readonly RoundRow[], evals: readonly EvalPoint[]): string {
  const evalAfter = new Map(evals.map((e) => [e.round, e]))
  const lines = [COLUMNS.map(([name]) => name).join(',')]
  for (const r of rounds)
    lines.push(COLUMNS.map(([, read]) => csvCell(read(r, evalAfter.get(r.round)))).join(','))
  return `${lines.join('\r\n')}\r\n`
}

/** Version of the JSON export's layout, for whoever reads it back. */
export const METRICS_JSON_VERSION = 1

export function metricsToJson(
  state: Pick<LearningState, 'model' | 'rounds' | 'evals'>,
  meta: { swarmId: string | null; peerId: string | null; exportedAt: number },
): string {
  return JSON.stringify(
    {
      version: METRICS_JSON_VERSION,
      exportedAt: new Date(meta.exportedAt).toISOString(),
      swarmId: meta.swarmId,
      peerId: meta.peerId,
      model: state.model,
      rounds: state.rounds,
      evals: state.evals,
    },
    null,
    2,
  )
}

/** "tabswarm-rounds-<peer tail>-<yyyy-mm-ddThh-mm-ss>.<ext>": sorts by time, no characters files dislike. */
export function exportFileName(peerId: string | null, at: number, ext: 'csv' | 'json'): string {
  const stamp = new Date(at).toISOString().slice(0, 19).replaceAll(':', '-')
  return `tabswarm-rounds-${peerId ? `${peerId.slice(-6)}-` : ''}${stamp}.${ext}`
}
