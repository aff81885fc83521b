// Seeded WGSL-vs-twin cases of the GRPO clipped-ratio loss: symmetric and clip-higher ranges, ratios
// inside, at and beyond the bounds (saturated ones too), masks, no counted token, extreme advantages.
import { grpoLoss, type GrpoLossInput } from '../ref/grpo.ts'
import { I32_MAX } from '../ref/rounding.ts'
import { uniformArray } from '../ref/seeded-random.ts'
import { fromFloat, qtensor, type QTensor } from '../ref/tensor.ts'
import type { ParityCase } from './kernel-cases.ts'
import { packTensors, withEdges } from './parity-helpers.ts'

const Q30 = 2 ** 30

export function grpoCases(rand: () => number): ParityCase[] {
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
  const inputs: [string, GrpoLossInput][] = [
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
  const pack = (out: { loss: QTensor; dLogProbs: QTensor }) => packTensors(out.loss, out.dLogProbs)
  return inputs.map(([name, input]) => ({
    name: `grpo ${name}`,
    twin: () => pack(grpoLoss(input)),
    gpu: async (k) => pack(await k.grpo.loss(input)),
  }))
}
