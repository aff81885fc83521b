import { describe, expect, it } from 'vitest'
import { argmax, candidateDistribution, sampleToken, uniformDraw, validateSampling } from './sampling.ts'

const base = { temperature: 1, topK: 0, topP: 1, seed: 7 }
/** logits whose softmax at temperature 1 is exactly [0.5, 0.25, 0.125, 0.125] */
const logits = Float32Array.from([0.5, 0.25, 0.125, 0.125].map(Math.log))

function frequencies(options: typeof base, draws: number): number[] {
  const counts = new Array<number>(logits.length).fill(0)
  for (let t = 0; t < draws; t++) counts[sampleToken(logits, options, { sample: 0, token: t })]!++
  return counts.map((c) => c / draws)
}

describe('sampling', () => {
  it('greedy picks the argmax and breaks ties toward the lowest id', () => {
    expect(argmax([1, 3, 3, 2])).toBe(1)
    expect(sampleToken([0, 5, 1, 5], { ...base, temperature: 0 }, { sample: 3, token: 9 })).toBe(1)
  })

  it('top-k 1 is greedy whatever the seed', () => {
    for (let seed = 0; seed < 20; seed++)
      expect(sampleToken([0.1, 0.3, 2, 1.9], { ...base, topK: 1, seed }, { sample: 0, token: seed })).toBe(2)
  })

  it('keeps the full distribution without cuts', () => {
    const { ids, probs } = candidateDistribution(logits, base)
    expect(ids).toEqual([0, 1, 2, 3])
    probs.forEach((p, i) => expect(p).toBeCloseTo([0.5, 0.25, 0.125, 0.125][i]!, 6))
  })

  it('top-p keeps the smallest prefix reaching p and renormalises', () => {
    const { ids, probs } = candidateDistribution(logits, { ...base, topP: 0.7 })
    expect(ids).toEqual([0, 1])
    expect(probs[0]).toBeCloseTo(2 / 3, 6)
    expect(probs[1]).toBeCloseTo(1 / 3, 6)
    // p below the top token's mass still keeps that token
    expect(candidateDistribution(logits, { ...base, topP: 0.1 }).ids).toEqual([0])
  })

  it('applies top-p to the softmax renormalised after top-k', () => {
    // after top-k 3: [0.4, 0.2, 0.1]/0.875 → 0.571, 0.286, 0.143; p 0.8 needs the first two
    const { ids } = candidateDistribution(logits, { ...base, topK: 3, topP: 0.8 })
    expect(ids).toEqual([0, 1])
  })

  it('temperature sharpens the distribution', () => {
    // at T = 0.5 the weights square: 0.25, 0.0625, 0.015625 ×2 → 0.727, 0.182, 0.045, 0.045
    const { probs } = candidateDistribution(logits, { ...base, temperature: 0.5 })
    expect(probs[0]).toBeCloseTo(0.25 / 0.34375, 6)
  })

  it('the top-p pre-filter on a large vocabulary gives the same nucleus as a full sort', () => {
    const v = 5000
    const big = Float32Array.from({ length: v }, (_, j) => Math.sin(j * 12.9898) * 4)
    const nucleus = candidateDistribution(big, { ...base, topP: 0.9 })
    const full = Array.from({ length: v }, (_, j) => j).sort((a, b) => big[b]! - big[a]! || a - b)
    expect(nucleus.ids).toEqual(full.slice(0, nucleus.ids.length))
    expect(nucleus.ids.length).toBeGreaterThan(10)
  })

  it('draw frequencies match the renormalised distribution within 1.5 points over 20 000 draws', () => {
    // binomial standard deviation at p = 0.5, n = 20 000 is 0.35 points: 1.5 points is > 4 sigma
    const all = frequencies(base, 20_000)
    ;[0.5, 0.25, 0.125, 0.125].forEach((p, i) => expect(Math.abs(all[i]! - p)).toBeLessThan(0.015))
    const nucleus = frequencies({ ...base, topP: 0.7 }, 20_000)
    expect(nucleus[2]).toBe(0)
    expect(nucleus[3]).toBe(0)
    expect(Math.abs(nucleus[0]! - 2 / 3)).toBeLessThan(0.015)
  })

  it('is deterministic for a seed and differs across seeds and samples', () => {
    const run = (seed: number, sample: number) =>
      Array.from({ length: 64 }, (_, t) => sampleToken(logits, { ...base, seed }, { sample, token: t }))
    expect(run(5, 0)).toEqual(run(5, 0))
    expect(run(5, 0)).not.toEqual(run(6, 0))
    expect(run(5, 0)).not.toEqual(run(5, 1))
    // seeds above 2^32 use the high key word
    expect(uniformDraw(2 ** 32 + 5, { sample: 0, token: 0 })).not.toBe(
      uniformDraw(5, { sample: 0, token: 0 }),
    )
  })

  it('names the bad field', () => {
    expect(() => validateSampling({ ...base, temperature: -1 })).toThrow(/temperature/)
    expect(() => validateSampling({ ...base, topK: 1.5 })).toThrow(/topK/)
    expect(() => validateSampling({ ...base, topP: 0 })).toThrow(/topP/)
    expect(() => validateSampling({ ...base, seed: -3 })).toThrow(/seed/)
    expect(() => validateSampling(base)).not.toThrow()
  })
})
