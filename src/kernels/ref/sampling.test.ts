import { describe, expect, it } from 'vitest'
import { drawU32 } from './philox.ts'
import {
  MIN_TEMPERATURE_Q16,
  greedyToken,
  inverseTemperatureQ30,
  sampleToken,
  type SamplingParams,
} from './sampling.ts'
import { softmax } from './softmax.ts'
import { fromFloat, toFloat } from './tensor.ts'

describe('sampling', () => {
  const logits = fromFloat([6], -16, [1, 3, 3, -2, 0.5, 2.9])
  const params: SamplingParams = { temperatureQ16: 65536, topK: 0, topPQ30: 2 ** 30 }
  const key = (position: number) => ({ seed: [7, 0] as [number, number], step: 1, position })

  it('greedy breaks ties toward the lower token id', () => {
    expect(greedyToken(logits)).toBe(1)
    expect(sampleToken(logits, { ...params, temperatureQ16: 0 }, key(0))).toBe(1)
  })

  it('top-k 1 is greedy; top-p keeps the smallest prefix reaching p', () => {
    for (let pos = 0; pos < 50; pos++) expect(sampleToken(logits, { ...params, topK: 1 }, key(pos))).toBe(1)
    const seen = new Set<number>()
    for (let pos = 0; pos < 300; pos++)
      seen.add(sampleToken(logits, { ...params, topPQ30: 0.5 * 2 ** 30 }, key(pos)))
    expect([...seen].sort()).toEqual([1, 2])
  })

  it('is a pure function of (seed, step, position) and follows the softmax distribution', () => {
    expect(sampleToken(logits, params, key(3))).toBe(sampleToken(logits, params, key(3)))
    const counts = new Array(6).fill(0)
    const n = 4000
    for (let pos = 0; pos < n; pos++) counts[sampleToken(logits, params, key(pos))]++
    const e = [1, 3, 3, -2, 0.5, 2.9].map(Math.exp)
    const z = e.reduce((s, x) => s + x, 0)
    counts.forEach((c, j) => expect(Math.abs(c / n - e[j]! / z)).toBeLessThan(0.03))
    expect(drawU32(key(0))).not.toBe(drawU32(key(1)))
  })

  it('holds temperatures down to MIN_TEMPERATURE_Q16 and refuses sharper ones instead of wrapping', () => {
    const t = MIN_TEMPERATURE_Q16 / 2 ** 16
    const x = [1, 3, 3, -2, 0.5, 2.9]
    const p = toFloat(
      softmax(fromFloat([1, 6], -16, x), { scaleQ30: inverseTemperatureQ30(MIN_TEMPERATURE_Q16) }),
    )
    const e = x.map((v) => Math.exp(v / t))
    const z = e.reduce((a, b) => a + b, 0)
    p.forEach((pj, j) => expect(Math.abs(pj - e[j]! / z)).toBeLessThan(2e-4))
    expect(() => inverseTemperatureQ30(MIN_TEMPERATURE_Q16 - 1)).toThrow(
      /below the reproducible sampler's minimum 0\.7214/,
    )
    expect(() => sampleToken(logits, { ...params, temperatureQ16: 0.5 * 2 ** 16 }, key(0))).toThrow(
      RangeError,
    )
  })
})
