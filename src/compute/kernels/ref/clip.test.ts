import { describe, expect, it } from 'vitest'
import { clipGradNorm } from './clip.ts'
import { maxAbsDiff } from './f64-reference.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { fromFloat, toFloat } from './tensor.ts'

const rand = seededRandom(52)

describe('gradient-norm clipping', () => {
  it('scales by maxNorm/norm across tensors with different exponents, and leaves small gradients alone', () => {
    const a = fromFloat([10], -20, uniformArray(rand, 10, -1, 1))
    const b = fromFloat([5], -30, uniformArray(rand, 5, -0.01, 0.01))
    const all = [...toFloat(a), ...toFloat(b)]
    const norm = Math.sqrt(all.reduce((s, x) => s + x * x, 0))
    const { grads, norm: wide } = clipGradNorm([a, b], 0.5)
    expect(Math.abs(Number(wide) * 2 ** -62 - norm)).toBeLessThan(1e-12)
    const clipped = [...toFloat(grads[0]!), ...toFloat(grads[1]!)]
    expect(
      maxAbsDiff(
        clipped,
        all.map((x) => (x * 0.5) / norm),
      ),
    ).toBeLessThan(2 ** -19)
    expect(clipGradNorm([a, b], 100).grads[0]).toBe(a)
  })
})
