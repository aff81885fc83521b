import { describe, expect, it } from 'vitest'
import { maxRelToPeak, numericGrad } from './f64-reference.ts'
import { rmsNorm, rmsNormBackward } from './rmsnorm.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { fromFloat, toFloat } from './tensor.ts'

const rand = seededRandom(31)

describe('RMSNorm vs f64', () => {
  const [r, d, eps] = [5, 24, 1e-6]
  const x = fromFloat([r, d], -20, uniformArray(rand, r * d, -3, 3))
  const w = fromFloat([d], -24, uniformArray(rand, d, 0.5, 1.5))
  const forward = (xs: Float64Array, ws: Float64Array) => {
    const y = new Float64Array(r * d)
    for (let i = 0; i < r; i++) {
      let ss = 0
      for (let j = 0; j < d; j++) ss += xs[i * d + j]! ** 2
      const inv = 1 / Math.sqrt(ss / d + eps)
      for (let j = 0; j < d; j++) y[i * d + j] = xs[i * d + j]! * inv * ws[j]!
    }
    return y
  }

  it('forward: relative-to-peak error ≤ 2e-5 (mantissa squares) at 2^-20', () => {
    expect(maxRelToPeak(toFloat(rmsNorm(x, w, eps, -20)), forward(toFloat(x), toFloat(w)))).toBeLessThan(2e-5)
  })

  it('backward: dx and dWeight match finite differences within 2e-4 of the peak', () => {
    const dy = fromFloat([r, d], -20, uniformArray(rand, r * d, -1, 1))
    const dyf = toFloat(dy)
    const dot = (y: Float64Array) => y.reduce((s, v, i) => s + v * dyf[i]!, 0)
    const { dx, dWeight } = rmsNormBackward(x, w, eps, dy)
    expect(
      maxRelToPeak(
        toFloat(dx),
        numericGrad((xs) => dot(forward(xs, toFloat(w))), toFloat(x)),
      ),
    ).toBeLessThan(2e-4)
    expect(
      maxRelToPeak(
        toFloat(dWeight),
        numericGrad((ws) => dot(forward(toFloat(x), ws)), toFloat(w)),
      ),
    ).toBeLessThan(2e-4)
  })
})
