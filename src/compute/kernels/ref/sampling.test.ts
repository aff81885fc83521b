import { describe, expect, it } from 'vitest'
import { maxAbsDiff, softmaxRowF64 } from './f64-reference.ts'
import { drawU32 } from './philox.ts'
import { I32_MAX } from './rounding.ts'
import {
  MAX_TEMPERATURE_Q16,
  candidateOrder,
  greedyToken,
  sampleToken,
  temperatureScaled,
  type SamplingParams,
} from './sampling.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { softmax } from './softmax.ts'
import { fromFloat, qtensor, toFloat, type QTensor } from './tensor.ts'

/** The sampler's probabilities for logits [v] at temperature T (Q16). */
function probabilities(logits: QTensor, temperatureQ16: number): Float64Array {
  const y = temperatureScaled(logits, temperatureQ16)
  return toFloat(softmax(qtensor([1, y.data.length], y.exp, y.data)))
}

describe('sampling', () => {
  const logits = fromFloat([6], -16, [1, 3, 3, -2, 0.5, 2.9])
  const params: SamplingParams = { temperatureQ16: 65536, topK: 0, topPQ30: 2 ** 30 }
  const key = (position: number) => ({ seed: [7, 0] as [number, number], step: 1, position })

  it('orders candidates by probability, highest first, ties to the lower id, as a comparator sort does', () => {
    const rand = seededRandom(5)
    for (const v of [1, 2, 6, 512, 777, 4096]) {
      // few distinct values, so most probabilities tie; the top of Q30 included
      const p = Int32Array.from({ length: v }, () => [0, 1, 7, 2 ** 29, 2 ** 30][Math.floor(rand() * 5)]!)
      const bySpec = Array.from({ length: v }, (_, j) => j).sort((a, b) => p[b]! - p[a]! || a - b)
      expect(Array.from(candidateOrder(p))).toEqual(bySpec)
    }
    expect(() => candidateOrder(new Int32Array(2 ** 23 + 1))).toThrow(RangeError)
  })

  it('without top-k, draws the token of the full ordered walk (the lazy heaps give its cut and its pick)', () => {
    // topK = v is the same cut as topK = 0 and takes the sorted walk, so the two must always agree
    const rand = seededRandom(11)
    let draws = 0
    for (const v of [1, 2, 7, 64, 512]) {
      for (let trial = 0; trial < 60; trial++) {
        // gaps from ties (quantised logits) to far (many probabilities of 0), T from sharp to flat
        const step = [0, 0.25, 1, 4][trial % 4]!
        const spread = [0.5, 4, 30, 200][Math.floor(trial / 4) % 4]!
        const values = Array.from({ length: v }, () => {
          const x = (rand() * 2 - 1) * spread
          return step === 0 ? x : Math.round(x / step) * step
        })
        const row = fromFloat([v], -16, values)
        const temperatureQ16 = [65536, 6554, 3 * 65536][trial % 3]!
        for (const topPQ30 of [2 ** 30, 2 ** 30 - 1, 0.999 * 2 ** 30, 0.9 * 2 ** 30, 0.3 * 2 ** 30, 1, 0])
          for (let pos = 0; pos < 4; pos++) {
            const lazy = sampleToken(row, { temperatureQ16, topK: 0, topPQ30 }, key(pos))
            const sorted = sampleToken(row, { temperatureQ16, topK: v, topPQ30 }, key(pos))
            if (lazy !== sorted)
              expect([v, trial, topPQ30, pos, lazy]).toEqual([v, trial, topPQ30, pos, sorted])
            draws++
          }
      }
    }
    expect(draws).toBe(5 * 60 * 7 * 4)
    // top-p exactly at a cut: the prefix without the m smallest candidates reaches p (kept out) or
    // misses it by one (the last of them kept)
    for (let trial = 0; trial < 40; trial++) {
      const v = 16 + trial
      const row = fromFloat([v], -16, uniformArray(rand, v, -3, 3))
      const pInts = softmax(qtensor([1, v], -16, temperatureScaled(row, 65536).data)).data
      const total = pInts.reduce((a, b) => a + b, 0)
      const ascending = Array.from(pInts).sort((a, b) => a - b)
      for (let m = 1; m <= 3; m++)
        for (const nudge of [0, 1]) {
          const topPQ30 = total - ascending.slice(0, m).reduce((a, b) => a + b, 0) + nudge
          for (let pos = 0; pos < 8; pos++)
            expect(sampleToken(row, { temperatureQ16: 65536, topK: 0, topPQ30 }, key(pos))).toBe(
              sampleToken(row, { temperatureQ16: 65536, topK: v, topPQ30 }, key(pos)),
            )
        }
    }
  })

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

  it('scales the logits by 1/T as gaps below the top, with one round-half-even', () => {
    // gaps of 0, 1, 3, 5 units at T = 2: 0, −0.5, −1.5, −2.5 round half-even to 0, 0, −2, −2
    const x = qtensor([4], -16, Int32Array.of(9, 8, 6, 4))
    expect([...temperatureScaled(x, 2 * 2 ** 16).data]).toEqual([0, 0, -2, -2])
    expect(temperatureScaled(x, 2 * 2 ** 16).exp).toBe(-16)
    // gaps up to 2^32 − 2 units: exact below 2^31, saturated beyond, never wrapped
    const wide = qtensor([3], -16, Int32Array.of(I32_MAX, 0, -I32_MAX))
    expect([...temperatureScaled(wide, 2 ** 16).data]).toEqual([0, -I32_MAX, -I32_MAX])
    // (2^32 − 2)/4 = 2^30 − 0.5: the tie goes to the even 2^30
    expect([...temperatureScaled(wide, 4 * 2 ** 16).data]).toEqual([0, -(2 ** 29), -(2 ** 30)])
  })

  it('T = 1 draws are bit-identical to the sampler before the temperature fix (1/T folded into log2 e)', () => {
    // 96 draws recorded with the Q30-fold sampler (TWIN_VERSION 1), base 36, one character per draw;
    // every eighth row has half its logits at −(2^31 − 1), gaps beyond 2^31 units
    const want =
      'ox6u57fvikgknidvkski09lbdstcj1wtbvutjsskrry3ofsjlsu8cjqiaraihxdzjwhpbyiofmx2zqnrzmeua3dorj8hllmz'
    const rand = seededRandom(2026)
    const v = 36
    let got = ''
    for (let r = 0; r < 96; r++) {
      const row = fromFloat([v], -16, uniformArray(rand, v, -8, 8))
      if (r % 8 === 1) row.data.fill(-(2 ** 31 - 1), 0, v / 2)
      const topK = [0, 5, 1000][r % 3]!
      const topPQ30 = [2 ** 30, Math.round(0.9 * 2 ** 30), 0][r % 4 === 3 ? 2 : r % 2]!
      const draw = sampleToken(
        row,
        { temperatureQ16: 2 ** 16, topK, topPQ30 },
        { seed: [r, 0xffffffff], step: 3, position: r },
      )
      got += draw.toString(36)
    }
    expect(got).toBe(want)
  })

  it('matches the f64 softmax within 2e-4 at T = 0.1, 0.3, 0.7, 1 and 2', () => {
    const rand = seededRandom(11)
    for (const t of [0.1, 0.3, 0.7, 1, 2]) {
      const tQ16 = Math.round(t * 2 ** 16)
      for (let r = 0; r < 20; r++) {
        const x = fromFloat([50], -16, uniformArray(rand, 50, -8, 8))
        // the reference divides by the temperature the sampler got (Q16), not by its decimal
        expect(maxAbsDiff(probabilities(x, tQ16), softmaxRowF64(toFloat(x), 2 ** 16 / tQ16))).toBeLessThan(
          2e-4,
        )
      }
    }
  })

  it('samples sharp temperatures the Q30 fold had to refuse: [1, 2, 3, 0.5] at T 0.7', () => {
    const x = fromFloat([4], -16, [1, 2, 3, 0.5])
    const tQ16 = Math.round(0.7 * 2 ** 16)
    const p = probabilities(x, tQ16)
    expect(maxAbsDiff(p, softmaxRowF64([1, 2, 3, 0.5], 1 / 0.7))).toBeLessThan(2e-4)
    expect([...p].map((q) => q.toFixed(2))).toEqual(['0.04', '0.18', '0.75', '0.02'])
    const counts = [0, 0, 0, 0]
    const n = 4000
    for (let pos = 0; pos < n; pos++) counts[sampleToken(x, { ...params, temperatureQ16: tQ16 }, key(pos))]!++
    counts.forEach((c, j) => expect(Math.abs(c / n - p[j]!)).toBeLessThan(0.03))
  })

  it('takes every temperature in (0, 16]: the sharpest is greedy within a unit, the flattest near uniform', () => {
    // T = 2^-16: logits one unit (2^-16) apart become one apart, so the top token holds e/(e + 1)
    const close = qtensor([3], -16, Int32Array.of(5, 6, -40))
    const sharp = probabilities(close, 1)
    expect(sharp[1]).toBeCloseTo(Math.E / (Math.E + 1), 6)
    expect(sharp[2]).toBe(0)
    const flat = probabilities(fromFloat([2], -16, [0, 1]), MAX_TEMPERATURE_Q16)
    expect(flat[1]! / flat[0]!).toBeCloseTo(Math.exp(1 / 16), 5)
    expect(sampleToken(close, { ...params, temperatureQ16: 1 }, key(0))).toBeLessThan(2)
  })

  it('refuses temperatures outside (0, 16] Q16 with a RangeError; T ≤ 0 is greedy', () => {
    const at = (temperatureQ16: number) => () => sampleToken(logits, { ...params, temperatureQ16 }, key(0))
    expect(at(MAX_TEMPERATURE_Q16 + 1)).toThrow(/above the reproducible sampler's maximum 16/)
    expect(at(0.7)).toThrow(/not a whole number of Q16 units/)
    expect(at(Number.NaN)).toThrow(RangeError)
    expect(at(-65536)()).toBe(1)
    expect(() => temperatureScaled(logits, 0)).toThrow(/not a whole number of Q16 units above 0/)
  })
})
