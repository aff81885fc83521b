// Lays a training batch of rollout groups out for the model: one row per completion holding the prompt
// then the completion, right-padded to the longest row. Loss positions are the ones whose next token is
// a completion token; each row carries its group's advantage.
import type { RolloutBatch } from './grpo-step.ts'
import { groupAdvantages } from '../../core/learning/grpo-advantages.ts'
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'

/** A batch with one row per completion; `padId` fills rows shorter than the longest one (never a target). */
export function buildRolloutBatch(
  groups: readonly TokenizedGroup[],
  padId: number,
  maxSeqLen: number,
): RolloutBatch {
  const rows: { ids: number[]; promptLength: number; advantage: number }[] = []
  for (const g of groups) {
    if (g.completions.length !== g.rewards.length)
      throw new RangeError(`a group has ${g.completions.length} completions and ${g.rewards.length} rewards`)
    if (g.promptIds.length === 0) throw new RangeError('a rollout prompt needs at least one token')
    const advantages = groupAdvantages(g.rewards)
    g.completions.forEach((c, i) =>
      rows.push({
        // the longest prefix that fits the context: a completion cut at maxSeqLen trains on what fits
        ids: [...g.promptIds, ...c].slice(0, maxSeqLen),
        promptLength: g.promptIds.length,
        advantage: advantages[i]!,
      }),
    )
  }
  const seqLen = Math.max(1, ...rows.map((r) => r.ids.length))
  const ids = new Int32Array(rows.length * seqLen).fill(padId)
  const targets = new Int32Array(rows.length * seqLen).fill(padId)
  const mask = new Uint8Array(rows.length * seqLen)
  rows.forEach((row, r) => {
    const base = r * seqLen
    ids.set(row.ids, base)
    for (let i = 0; i + 1 < row.ids.length; i++) {
      targets[base + i] = row.ids[i + 1]!
      // position i predicts token i + 1: a loss position when that token belongs to the completion
      mask[base + i] = i + 1 >= row.promptLength ? 1 : 0
    }
  })
  return {
    inputs: { ids, batch: rows.length, seqLen },
    targets,
    mask,
    advantages: rows.map((r) => r.advantage),
  }
}
