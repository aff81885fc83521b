import { describe, expect, it } from 'vitest'
import { crossEntropy, crossEntropyBackward, LOSS_EXP } from './cross-entropy.ts'
import { maxRelToPeak, numericGrad, softmaxRowF64 } from './f64-reference.ts'
import { tokenLogProbs } from './logprob.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { fromFloat, toFloat } from './tensor.ts'

const rand = seededRandom(22)

describe('cross-entropy and token log-probs vs f64', () => {
  it('cross-entropy and its gradient match f64 (gradient checked by finite differences)', () => {
    const [t, v] = [6, 11]
    const logits = fromFloat([t, v], -16, uniformArray(rand, t * v, -4, 4))
    const targets = Int32Array.from({ length: t }, () => Math.floor(rand() * v))
    const lf = toFloat(logits)
    const loss = (z: Float64Array) => {
      let s = 0
      for (let i = 0; i < t; i++) s -= Math.log(softmaxRowF64(z.subarray(i * v, (i + 1) * v))[targets[i]!]!)
      return s / t
    }
    const ce = crossEntropy(logits, targets)
    expect(ce.exp).toBe(LOSS_EXP)
    expect(Math.abs(toFloat(ce)[0]! - loss(lf))).toBeLessThan(1e-6)
    const lp = toFloat(tokenLogProbs(logits, targets, -24))
    lp.forEach((val, i) =>
      expect(
        Math.abs(val - Math.log(softmaxRowF64(lf.subarray(i * v, (i + 1) * v))[targets[i]!]!)),
      ).toBeLessThan(1e-6),
    )
    expect(maxRelToPeak(toFloat(crossEntropyBackward(logits, targets)), numericGrad(loss, lf))).toBeLessThan(
      1e-6,
    )
  })
})
