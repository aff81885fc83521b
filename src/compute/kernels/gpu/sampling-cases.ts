// Seeded WGSL-vs-twin cases of token sampling: greedy and sampled rows, top-k and top-p cuts at their
// edges, ties (equal logits order by token id), sharp (down to 2^-16) and flat temperatures, seeds
// with high bits set.
import type { DrawKey } from '../ref/philox.ts'
import { sampleToken, type SamplingParams } from '../ref/sampling.ts'
import { uniformArray } from '../ref/seeded-random.ts'
import { fromFloat, qtensor, type QTensor } from '../ref/tensor.ts'
import type { ParityCase } from './kernel-set.ts'

const Q16 = 2 ** 16
const Q30 = 2 ** 30

export function samplingCases(rand: () => number): ParityCase[] {
  const [rows, v] = [14, 40]
  const logits = fromFloat([rows, v], -16, uniformArray(rand, rows * v, -6, 6))
  logits.data.fill(3 << 16, v, 2 * v) // a constant row: every probability ties
  for (let j = 0; j < v; j += 2) logits.data[2 * v + j + 1] = logits.data[2 * v + j]! // tied pairs
  logits.data.fill(-(2 ** 31 - 1), 3 * v, 4 * v - 1) // one token holds all the mass
  const keys: DrawKey[] = Array.from({ length: rows }, (_, i) => ({
    seed: [0x9e3779b9, i % 2 === 0 ? 0xffffffff : 7],
    step: 1000 + (i % 3),
    position: i,
  }))
  const all: SamplingParams = { temperatureQ16: Q16, topK: 0, topPQ30: Q30 }
  const settings: [string, SamplingParams][] = [
    ['T 1, all tokens', all],
    ['greedy (T 0)', { ...all, temperatureQ16: 0 }],
    ['T 0.75, top-k 5', { ...all, temperatureQ16: 0.75 * Q16, topK: 5 }],
    ['T 0.5 (sharp)', { ...all, temperatureQ16: 0.5 * Q16 }],
    [
      'T 0.1 (sharp), top-p 0.9',
      { ...all, temperatureQ16: Math.round(0.1 * Q16), topPQ30: Math.round(0.9 * Q30) },
    ],
    ['T 2^-16 (the sharpest): gaps past 2^31 units saturate', { ...all, temperatureQ16: 1 }],
    ['top-p 0.9', { ...all, topPQ30: Math.round(0.9 * Q30) }],
    ['top-k 1', { ...all, topK: 1 }],
    ['top-p 0: the first candidate only', { ...all, topPQ30: 0 }],
    ['top-k beyond the vocabulary, top-p 0.5', { ...all, topK: 1000, topPQ30: Q30 / 2 }],
    [
      'T 4 (flat), top-k 12, top-p 0.3',
      { temperatureQ16: 4 * Q16, topK: 12, topPQ30: Math.round(0.3 * Q30) },
    ],
  ]
  const row = (i: number): QTensor => qtensor([v], logits.exp, logits.data.slice(i * v, (i + 1) * v))
  return settings.map(([name, params]) => ({
    name: `sampling ${name}`,
    twin: () =>
      qtensor(
        [rows],
        0,
        Int32Array.from(keys, (key, i) => sampleToken(row(i), params, key)),
      ),
    gpu: async (k) => qtensor([rows], 0, await k.sampling.sample(logits, params, keys)),
  }))
}
