import { expFixed } from './exp.ts'
import { expForMagnitude, magnitude } from './elementwise.ts'
import { LOSS_EXP } from './cross-entropy.ts'
import { ceilLog2, divRne, mulRne, rne, sat32 } from './rounding.ts'
import { assertShape, qtensor, type QTensor } from './tensor.ts'

/** Probability ratios exp(logp − logp_old) at 2^-24: range (0, 128), beyond which they saturate. */
export const RATIO_EXP = -24

export interface GrpoLossInput {
  /** log π_θ(token) per position [T] (the policy being trained). */
  readonly logProbs: QTensor
  /** log π_old(token) per position [T], at logProbs' exponent. */
  readonly oldLogProbs: QTensor
  /** Group-relative advantage of each position's sequence [T]. */
  readonly advantages: QTensor
  /** 1 for completion tokens that count, 0 for prompt and padding. */
  readonly mask: Uint8Array
  /** Lower clip ε_low in Q30 (0.2 → round(0.2·2^30)): the ratio's floor is 1 − ε_low. */
  readonly clipEpsQ30: number
  /** Upper clip ε_high in Q30: the ceiling is 1 + ε_high (DAPO's clip-higher; ε_low when omitted). */
  readonly clipEpsHighQ30?: number
}

export interface GrpoLossOutput {
  /** −(1/N)·Σ min(r·A, clip(r, 1−ε_low, 1+ε_high)·A) over the N masked tokens, at LOSS_EXP. */
  readonly loss: QTensor
  /** d loss / d logProbs [T]: −A·r/N where the unclipped branch is active, else 0. */
  readonly dLogProbs: QTensor
}

/** PPO/GRPO clipped-ratio surrogate, token-mean over the mask. */
/** The loss's integer constants, shared by the twin and the WGSL host (grpo-kernel.ts). */
export interface GrpoScalars {
  /** masked tokens */
  readonly count: number
  /** the ratio's clip bounds 1 − ε_low and 1 + ε_high at 2^RATIO_EXP */
  readonly lo: number
  readonly hi: number
  /** the exponent of A·r products */
  readonly eq: number
  /** ceil(log2 count): the gradient's exponent is eq − k */
  readonly k: number
}

/** Checks the inputs' shapes and derives the loss's constants. */
export function grpoScalars(input: GrpoLossInput): GrpoScalars {
  const { logProbs, oldLogProbs, advantages, mask } = input
  const t = logProbs.data.length
  assertShape(oldLogProbs, [t], 'old log-probs')
  assertShape(advantages, [t], 'advantages')
  if (oldLogProbs.exp !== logProbs.exp)
    throw new RangeError('grpoLoss: log-prob tensors must share an exponent')
  if (mask.length !== t) throw new RangeError(`grpoLoss: mask has ${mask.length} entries for ${t} tokens`)
  const count = mask.reduce((n, m) => n + (m ? 1 : 0), 0)
  return {
    count,
    lo: 2 ** 24 - rne(input.clipEpsQ30, 30 + RATIO_EXP),
    hi: 2 ** 24 + rne(input.clipEpsHighQ30 ?? input.clipEpsQ30, 30 + RATIO_EXP),
    // A·r and A·clip(r) are below 2^7·max|A|; eq keeps them in i32
    eq: expForMagnitude(magnitude(advantages) + 8),
    k: ceilLog2(Math.max(count, 1)),
  }
}

export function grpoLoss(input: GrpoLossInput): GrpoLossOutput {
  const { logProbs, oldLogProbs, advantages, mask } = input
  const t = logProbs.data.length
  const { count, lo, hi, eq, k } = grpoScalars(input)
  const s = eq - advantages.exp - RATIO_EXP
  const grad = qtensor([t], eq - k)
  let sum = 0
  for (let i = 0; i < t; i++) {
    if (!mask[i]) continue
    const r = expFixed(logProbs.data[i]! - oldLogProbs.data[i]!, logProbs.exp, RATIO_EXP)
    const a = advantages.data[i]!
    // min(r·A, clip(r)·A) picks r while r ≤ 1+ε_high (A ≥ 0) or r ≥ 1−ε_low (A < 0); only then does r carry gradient
    const active = a >= 0 ? r <= hi : r >= lo
    const chosen = active ? r : a >= 0 ? hi : lo
    sum -= mulRne(a, chosen, s)
    if (active) grad.data[i] = divRne(-mulRne(a, r, s), count, k)
  }
  const mean = count === 0 ? 0 : divRne(sum, count, 0)
  return { loss: qtensor([1], LOSS_EXP, Int32Array.of(sat32(rne(mean, LOSS_EXP - eq)))), dLogProbs: grad }
}
