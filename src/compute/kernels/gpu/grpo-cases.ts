// Seeded WGSL-vs-twin cases of the GRPO clipped-ratio loss: symmetric and clip-higher ranges, ratios
// inside, at and beyond the bounds (saturated ones too), masks, no counted token, extreme advantages;
// then its KL penalty: log-ratios inside, at and beyond the clamp, β from 2^-30 to 2 − 2^-30.
import { KL_LOG_RATIO_MAX, KL_LOG_RATIO_MIN, grpoLoss, type GrpoLossInput } from '../ref/grpo.ts'
import { I32_MAX, sat32 } from '../ref/rounding.ts'
import { seededRandom, uniformArray } from '../ref/seeded-random.ts'
import { fromFloat, qtensor, type QTensor } from '../ref/tensor.ts'
import type { ParityCase } from './kernel-set.ts'
import { packTensors, withEdges } from './parity-helpers.ts'

const Q30 = 2 ** 30

/** The clipped-surrogate inputs (no KL term), named. */
export function grpoClipInputs(rand: () => number): [string, GrpoLossInput][] {
  const t = 45
  const floats = (exp: number, lo: number, hi: number) => fromFloat([t], exp, uniformArray(rand, t, lo, hi))
  const old = floats(-24, -8, 0)
  // log-ratios in [−0.5, 0.5] straddle both clip bounds; a few far outside saturate or vanish
  const lp = qtensor(
    [t],
    -24,
    old.data.map((v) => v + Math.round((rand() - 0.5) * 2 ** 24)),
  )
  lp.data.set([old.data[0]!, old.data[1]!, I32_MAX, -I32_MAX, old.data[4]! + 2 ** 28], 0)
  old.data.set([-I32_MAX, I32_MAX], 2)
  const adv = withEdges(floats(-20, -2, 2), [0, 2 ** 21, -(2 ** 21)])
  const extremes = withEdges(floats(-20, -2, 2), [I32_MAX, -I32_MAX, I32_MAX, -I32_MAX])
  const mask = Uint8Array.from({ length: t }, (_, i) => (i % 7 === 6 ? 0 : 1))
  const base: GrpoLossInput = { logProbs: lp, oldLogProbs: old, advantages: adv, mask, clipEpsQ30: 0.2 * Q30 }
  const coarse = floats(-16, -8, 0)
  return [
    ['ε 0.2', base],
    ['clip-higher ε 0.2 / 0.28', { ...base, clipEpsHighQ30: Math.round(0.28 * Q30) }],
    ['ε 0: every ratio at a bound or clipped', { ...base, clipEpsQ30: 0 }],
    ['ε_low 0.9, ε_high 3', { ...base, clipEpsQ30: Math.round(0.9 * Q30), clipEpsHighQ30: 3 * Q30 }],
    ['no token counted', { ...base, mask: new Uint8Array(t) }],
    ['advantages ±(2^31 − 1): the loss saturates', { ...base, advantages: extremes }],
    ['zero advantages', { ...base, advantages: qtensor([t], -20) }],
    ['log-probs at 2^-16', { ...base, logProbs: coarse, oldLogProbs: floats(-16, -8, 0) }],
    [
      'one token',
      {
        ...base,
        logProbs: qtensor([1], -24, Int32Array.of(-5)),
        oldLogProbs: qtensor([1], -24, Int32Array.of(-3 << 22)),
        advantages: qtensor([1], -20, Int32Array.of(-7)),
        mask: Uint8Array.of(1),
      },
    ],
  ]
}

/** The KL cases' own generator: they draw nothing from the shared one, so the later suites keep their inputs. */
const KL_SEED = 23

/** KL-penalty inputs built on the surrogate's base case (its first input), named. */
export function grpoKlInputs(base: GrpoLossInput): [string, GrpoLossInput][] {
  const rand = seededRandom(KL_SEED)
  const t = base.logProbs.data.length
  /** `from` plus uniform noise of ±spread/2 units, saturated. */
  const near = (from: QTensor, spread: number) =>
    qtensor(
      [t],
      from.exp,
      from.data.map((v) => sat32(v + Math.round((rand() - 0.5) * spread))),
    )
  const lp = base.logProbs.data
  // d = ref − logp within ±1; then at and one unit beyond both clamp bounds, far beyond (16), 0 and
  // ±1 unit, and ±2^32 against the saturated log-probs at 2 and 3; the masked token 13 far beyond
  const ref = near(base.logProbs, 2 ** 25)
  ref.data.set([-I32_MAX, I32_MAX], 2)
  ref.data.set(
    [
      lp[5]! + KL_LOG_RATIO_MAX,
      lp[6]! + KL_LOG_RATIO_MAX + 1,
      lp[7]! + KL_LOG_RATIO_MIN,
      lp[8]! + KL_LOG_RATIO_MIN - 1,
      lp[9]! + 2 ** 28,
      lp[10]!,
      lp[11]! + 1,
      lp[12]! - 1,
      lp[13]! + 2 ** 28,
    ],
    5,
  )
  const kl = { ...base, refLogProbs: ref, klBetaQ30: Math.round(0.04 * Q30) }
  const coarse = near(
    qtensor(
      [t],
      -16,
      lp.map((v) => v >> 8),
    ),
    2 ** 17,
  )
  coarse.data.set([coarse.data[0]! + 4 * 2 ** 16 + 1, coarse.data[1]! - 64 * 2 ** 16 - 1], 0)
  // at 2^-30 d is rounded to 2^-24 (64 units): ±32 and ±96 are ties
  const fine = fromFloat([t], -30, uniformArray(rand, t, -1.9, -0.1))
  const fineRef = near(fine, 2 ** 31)
  fineRef.data.set([fine.data[0]! + 32, fine.data[1]! + 96, fine.data[2]! - 32, fine.data[3]! - 96], 0)
  const extremes = withEdges(qtensor([t], base.advantages.exp, Int32Array.from(base.advantages.data)), [
    I32_MAX,
    -I32_MAX,
    I32_MAX,
    -I32_MAX,
  ])
  return [
    ['KL β 0.04', kl],
    ['KL β 0 with a reference: the surrogate alone, kl 0', { ...kl, klBetaQ30: 0 }],
    ['KL β 2^-30', { ...kl, klBetaQ30: 1 }],
    [
      'KL β 2 − 2^-30, zero advantages: β sets the gradient exponent',
      { ...kl, klBetaQ30: I32_MAX, advantages: qtensor([t], base.advantages.exp) },
    ],
    ['KL advantages ±(2^31 − 1): they set the gradient exponent', { ...kl, advantages: extremes }],
    ['KL clip-higher with ε_low 0', { ...kl, clipEpsQ30: 0, clipEpsHighQ30: Math.round(0.28 * Q30) }],
    ['KL no token counted', { ...kl, mask: new Uint8Array(t) }],
    [
      'KL log-probs at 2^-16',
      { ...kl, logProbs: coarse, oldLogProbs: near(coarse, 2 ** 16), refLogProbs: near(coarse, 2 ** 17) },
    ],
    [
      'KL log-probs at 2^-30: d rounds to 2^-24, ties to even',
      { ...kl, logProbs: fine, oldLogProbs: near(fine, 2 ** 29), refLogProbs: fineRef },
    ],
    [
      'KL one token',
      {
        ...kl,
        logProbs: qtensor([1], -24, Int32Array.of(-5)),
        oldLogProbs: qtensor([1], -24, Int32Array.of(-3 << 22)),
        refLogProbs: qtensor([1], -24, Int32Array.of(-(7 << 22))),
        advantages: qtensor([1], -20, Int32Array.of(-7)),
        mask: Uint8Array.of(1),
      },
    ],
  ]
}

export function grpoCases(rand: () => number): ParityCase[] {
  const clip = grpoClipInputs(rand)
  const inputs = [...clip, ...grpoKlInputs(clip[0]![1])]
  const pack = (out: { loss: QTensor; dLogProbs: QTensor; kl: QTensor }) =>
    packTensors(out.loss, out.dLogProbs, out.kl)
  return inputs.map(([name, input]) => ({
    name: `grpo ${name}`,
    twin: () => pack(grpoLoss(input)),
    gpu: async (k) => pack(await k.grpo.loss(input)),
  }))
}
