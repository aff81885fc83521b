import { describe, expect, it } from 'vitest'
import { maxAbsDiff, maxRelToPeak, softmaxRowF64 } from './f64-reference.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { PROB_EXP, logSoftmax, softmax, softmaxBackward } from './softmax.ts'
import { fromFloat, toFloat } from './tensor.ts'

const rand = seededRandom(21)

function rowsF64(x: Float64Array, r: number, n: number, scale = 1, valid = (_: number) => n): Float64Array {
  const out = new Float64Array(r * n)
  for (let i = 0; i < r; i++) out.set(softmaxRowF64(x.subarray(i * n, i * n + valid(i)), scale), i * n)
  return out
}

describe('softmax family vs f64 (logits in [−30, 30] at 2^-16)', () => {
  const [r, n] = [16, 50]
  const x = fromFloat([r, n], -16, uniformArray(rand, r * n, -30, 30))
  const xf = toFloat(x)

  it('softmax: |error| ≤ 1e-8 absolute, rows sum to 1 within n·2^-31', () => {
    const p = softmax(x)
    expect(p.exp).toBe(PROB_EXP)
    expect(maxAbsDiff(toFloat(p), rowsF64(xf, r, n))).toBeLessThan(1e-8)
    for (let i = 0; i < r; i++) {
      const sum = p.data.subarray(i * n, (i + 1) * n).reduce((s, v) => s + v, 0)
      expect(Math.abs(sum - 2 ** 30)).toBeLessThanOrEqual(n)
    }
  })

  it('scaled and causally masked softmax: masked columns are exactly 0', () => {
    const scale = 0.125
    const p = softmax(x, { scaleQ30: scale * 2 ** 30, validCols: (i) => i + 1 })
    expect(
      maxAbsDiff(
        toFloat(p),
        rowsF64(xf, r, n, scale, (i) => i + 1),
      ),
    ).toBeLessThan(1e-8)
    expect(p.data[0]).toBe(2 ** 30)
    expect(p.data[1]).toBe(0)
  })

  it('log-softmax: |error| ≤ 1e-6 absolute at 2^-20', () => {
    const ls = logSoftmax(x, -20)
    expect(maxAbsDiff(toFloat(ls), rowsF64(xf, r, n).map(Math.log))).toBeLessThan(1e-6)
  })

  it('softmax backward matches the f64 Jacobian-vector product within 1e-6 of the peak', () => {
    const p = softmax(x)
    const dp = fromFloat([r, n], -20, uniformArray(rand, r * n, -1, 1))
    const dx = toFloat(softmaxBackward(p, dp))
    const pf = rowsF64(xf, r, n)
    const dpf = toFloat(dp)
    const want = new Float64Array(r * n)
    for (let i = 0; i < r; i++) {
      let dot = 0
      for (let j = 0; j < n; j++) dot += pf[i * n + j]! * dpf[i * n + j]!
      for (let j = 0; j < n; j++) want[i * n + j] = pf[i * n + j]! * (dpf[i * n + j]! - dot)
    }
    expect(maxRelToPeak(dx, want)).toBeLessThan(1e-6)
  })
})
