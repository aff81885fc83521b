import { expFixed } from './exp.ts'
import { expForMagnitude, magnitude } from './elementwise.ts'
import { LOSS_EXP } from './cross-entropy.ts'
import { I32_MAX, bitLength, ceilLog2, divRne, mulRne, rne, sat32 } from './rounding.ts'
import { assertShape, qtensor, type QTensor } from './tensor.ts'

/** Probability ratios exp(logp − logp_old) at 2^-24: range (0, 128), beyond which they saturate. */
export const RATIO_EXP = -24

/**
 * The KL penalty's log-ratio d = ref − logp, e^d and k3 = e^d − d − 1 are integers at 2^KL_EXP, the
 * loss's exponent, so the mean KL needs no second rounding. d is first rounded to it (exact for
 * log-probs at 2^-24 or coarser) and clamped to [KL_LOG_RATIO_MIN, KL_LOG_RATIO_MAX].
 */
export const KL_EXP = LOSS_EXP
/**
 * d's range [−64, 4] at 2^KL_EXP. e^d at 2^-24 would saturate at 128 (d ≈ 4.85, as the ratio does),
 * which would bend k3 down; 4 stops short of it and keeps e^d < 2^6, which sizes the gradient's
 * exponent. Below −64, e^d is 0 at 2^-24 already, and k3 = −d − 1 stays below 2^6 too. Beyond the
 * range d saturates: the token's k3 and its gradient β(1 − e^d)/N take their values at the bound, so a
 * policy far from the reference is still pulled back (with the bound's strength) rather than left
 * without gradient.
 */
export const KL_LOG_RATIO_MIN = -64 * 2 ** -KL_EXP
export const KL_LOG_RATIO_MAX = 4 * 2 ** -KL_EXP
/** 1 at 2^KL_EXP. */
const KL_ONE = 2 ** -KL_EXP

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
  /** log π_ref(token) per position [T], at logProbs' exponent: the KL penalty's reference policy. */
  readonly refLogProbs?: QTensor
  /**
   * The KL penalty's weight β in Q30 (0.04 → round(0.04·2^30)), an integer in [0, 2^31 − 1]. 0 or
   * omitted: no penalty, and the loss and gradient are bit-identical to the surrogate alone.
   */
  readonly klBetaQ30?: number
}

export interface GrpoLossOutput {
  /**
   * −(1/N)·Σ min(r·A, clip(r, 1−ε_low, 1+ε_high)·A) + β·kl over the N masked tokens, at LOSS_EXP:
   * the surrogate's mean rounded and saturated, then β·kl rounded and added (saturated).
   */
  readonly loss: QTensor
  /** d loss / d logProbs [T]: −A·r/N where the unclipped branch is active, else 0; plus β(1 − e^d)/N. */
  readonly dLogProbs: QTensor
  /**
   * [1] at LOSS_EXP: (1/N)·Σ k3 with k3 = e^d − d − 1, d = ref − logp (DeepSeekMath's unbiased,
   * non-negative estimator of KL(π_θ ‖ π_ref)); 0 when β is 0.
   */
  readonly kl: QTensor
}

/** The loss's integer constants, shared by the twin and the WGSL host (grpo-kernel.ts). */
export interface GrpoScalars {
  /** masked tokens */
  readonly count: number
  /** the ratio's clip bounds 1 − ε_low and 1 + ε_high at 2^RATIO_EXP */
  readonly lo: number
  readonly hi: number
  /** the exponent of A·r products and of the KL gradient's β(1 − e^d) */
  readonly eq: number
  /** ceil(log2 count): the gradient's exponent is eq − k */
  readonly k: number
  /** β in Q30, 0 without a KL penalty */
  readonly beta: number
  /** mulRne's shift of β·(1 − e^d) (Q30 times 2^KL_EXP) to the gradient numerators' 2^eq */
  readonly pullShift: number
}

/** Checks the KL inputs and returns β in Q30 (0 without a penalty). */
function klBeta(input: GrpoLossInput, t: number): number {
  const { refLogProbs, klBetaQ30 = 0 } = input
  if (!Number.isInteger(klBetaQ30) || klBetaQ30 < 0 || klBetaQ30 > I32_MAX)
    throw new RangeError(
      `grpoLoss: klBetaQ30 must be an integer in [0, 2^31 − 1] (β·2^30 rounded, e.g. 0.04 → ${Math.round(0.04 * 2 ** 30)}), got ${klBetaQ30}`,
    )
  if (refLogProbs === undefined) {
    if (klBetaQ30 > 0)
      throw new RangeError(
        'grpoLoss: a KL penalty (klBetaQ30 > 0) needs refLogProbs, the reference policy’s log-probs',
      )
    return 0
  }
  assertShape(refLogProbs, [t], 'reference log-probs')
  if (refLogProbs.exp !== input.logProbs.exp)
    throw new RangeError('grpoLoss: reference log-probs must share the log-probs’ exponent')
  return klBetaQ30
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
  const beta = klBeta(input, t)
  const count = mask.reduce((n, m) => n + (m ? 1 : 0), 0)
  // A·r and A·clip(r) are below 2^7·max|A|; β(1 − e^d) is below 2^6·β (e^d < 2^6 in d's range)
  const surrogateBits = magnitude(advantages) + 8
  const bits = beta > 0 ? Math.max(surrogateBits, bitLength(beta) - 30 + 7) : surrogateBits
  // eq keeps each of the two gradient numerators below 2^29, their sum in i32
  const eq = expForMagnitude(bits)
  return {
    count,
    lo: 2 ** 24 - rne(input.clipEpsQ30, 30 + RATIO_EXP),
    hi: 2 ** 24 + rne(input.clipEpsHighQ30 ?? input.clipEpsQ30, 30 + RATIO_EXP),
    eq,
    k: ceilLog2(Math.max(count, 1)),
    beta,
    pullShift: 30 - KL_EXP + eq,
  }
}

/** One token's KL terms: k3 at 2^KL_EXP and e^d (for the gradient's 1 − e^d). */
function klToken(ref: number, logp: number, lpExp: number): { k3: number; e: number } {
  const d = Math.min(Math.max(sat32(rne(ref - logp, KL_EXP - lpExp)), KL_LOG_RATIO_MIN), KL_LOG_RATIO_MAX)
  const e = expFixed(d, KL_EXP, KL_EXP)
  // exact, and never negative: e^d − 1 − d ≥ d²/2 outweighs expFixed's rounding (exhaustive for |d| < 2^-3)
  return { k3: e - d - KL_ONE, e }
}

/** PPO/GRPO clipped-ratio surrogate, token-mean over the mask, with DeepSeekMath's optional KL penalty. */
export function grpoLoss(input: GrpoLossInput): GrpoLossOutput {
  const { logProbs, oldLogProbs, advantages, mask, refLogProbs } = input
  const t = logProbs.data.length
  const { count, lo, hi, eq, k, beta, pullShift } = grpoScalars(input)
  const s = eq - advantages.exp - RATIO_EXP
  const grad = qtensor([t], eq - k)
  let sum = 0
  let klSum = 0
  for (let i = 0; i < t; i++) {
    if (!mask[i]) continue
    const r = expFixed(logProbs.data[i]! - oldLogProbs.data[i]!, logProbs.exp, RATIO_EXP)
    const a = advantages.data[i]!
    // min(r·A, clip(r)·A) picks r while r ≤ 1+ε_high (A ≥ 0) or r ≥ 1−ε_low (A < 0); only then does r carry gradient
    const active = a >= 0 ? r <= hi : r >= lo
    const chosen = active ? r : a >= 0 ? hi : lo
    sum -= mulRne(a, chosen, s)
    let pull = 0
    if (beta > 0 && refLogProbs) {
      const { k3, e } = klToken(refLogProbs.data[i]!, logProbs.data[i]!, logProbs.exp)
      klSum += k3
      pull = mulRne(beta, KL_ONE - e, pullShift)
    }
    grad.data[i] = divRne((active ? -mulRne(a, r, s) : 0) + pull, count, k)
  }
  const mean = count === 0 ? 0 : divRne(sum, count, 0)
  const surrogate = sat32(rne(mean, LOSS_EXP - eq))
  const kl = count === 0 ? 0 : divRne(klSum, count, 0)
  return {
    // KL_EXP is LOSS_EXP: β·kl is one rounding of a Q30 product
    loss: qtensor([1], LOSS_EXP, Int32Array.of(sat32(surrogate + mulRne(beta, kl, 30)))),
    dLogProbs: grad,
    kl: qtensor([1], LOSS_EXP, Int32Array.of(kl)),
  }
}
