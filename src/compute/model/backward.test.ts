import { describe, expect, it } from 'vitest'
import { crossEntropy, crossEntropyBackward } from '../kernels/ref/cross-entropy.ts'
import { seededRandom } from '../kernels/ref/seeded-random.ts'
import { toFloat } from '../kernels/ref/tensor.ts'
import { backward } from './backward.ts'
import { forward, type Batch } from './forward.ts'
import { forwardF64 } from './forward-f64.ts'
import { parameterLayout } from './layout.ts'
import { initParams } from './params.ts'
import { paramsF64, TINY_CONFIG } from './test-model.ts'

const rand = seededRandom(81)
const params = initParams(TINY_CONFIG, [1, 2])
const batch: Batch = {
  ids: Int32Array.from({ length: 2 * 8 }, () => Math.floor(rand() * 24)),
  batch: 2,
  seqLen: 8,
}

describe('backward pass vs f64', () => {
  const { logits, cache } = forward(TINY_CONFIG, params, batch)

  it("parameter gradients match f64 finite differences of the loss within 5e-4 of each tensor's peak", () => {
    const targets = Int32Array.from(batch.ids, (_, i) => batch.ids[(i + 1) % batch.ids.length]!)
    const grads = backward(TINY_CONFIG, params, cache, crossEntropyBackward(logits, targets))
    const base = paramsF64(params)
    const lossF64 = (p: Map<string, Float64Array>) => {
      const z = forwardF64(TINY_CONFIG, p, batch)
      let total = 0
      for (let r = 0; r < targets.length; r++) {
        const row = z.subarray(r * 24, (r + 1) * 24)
        const max = Math.max(...row)
        const lse = max + Math.log(row.reduce((s, x) => s + Math.exp(x - max), 0))
        total += lse - row[targets[r]!]!
      }
      return total / targets.length
    }
    expect(Math.abs(toFloat(crossEntropy(logits, targets))[0]! - lossF64(base))).toBeLessThan(1e-4)
    for (const spec of parameterLayout(TINY_CONFIG)) {
      const g = toFloat(grads.get(spec.name)!)
      const picks = Array.from({ length: 3 }, () => Math.floor(rand() * g.length))
      const numeric = picks.map((i) => {
        const t = base.get(spec.name)!
        const keep = t[i]!
        const h = 1e-4
        t[i] = keep + h
        const up = lossF64(base)
        t[i] = keep - h
        const down = lossF64(base)
        t[i] = keep
        return (up - down) / (2 * h)
      })
      const peak = Math.max(...g.map(Math.abs))
      picks.forEach((i, n) => expect(Math.abs(g[i]! - numeric[n]!) / peak, spec.name).toBeLessThan(5e-4))
    }
  })
})
