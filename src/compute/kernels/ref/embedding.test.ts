import { describe, expect, it } from 'vitest'
import { embeddingGather, embeddingScatterAdd } from './embedding.ts'
import { seededRandom } from './seeded-random.ts'
import { fromFloat } from './tensor.ts'
import { randomIntTensor, roundOnce } from './integer-oracle.ts'

const rand = seededRandom(14)
const randomTensor = (shape: number[], exp: number, bits: number) => randomIntTensor(rand, shape, exp, bits)

describe('embedding', () => {
  it('gathers rows and scatter-adds gradients exactly', () => {
    const table = fromFloat(
      [5, 3],
      -24,
      Float64Array.from({ length: 15 }, (_, i) => i / 10),
    )
    const ids = Int32Array.of(4, 0, 4, 2)
    const rows = embeddingGather(table, ids)
    expect(Array.from(rows.data.subarray(0, 3))).toEqual(Array.from(table.data.subarray(12, 15)))
    const d = randomTensor([4, 3], -30, 31)
    const g = embeddingScatterAdd(d, ids, 5)
    const want = (row: number, col: number) =>
      ids.reduce((s, id, t) => s + (id === row ? BigInt(d.data[t * 3 + col]!) : 0n), 0n)
    for (let r = 0; r < 5; r++)
      for (let c = 0; c < 3; c++) expect(g.data[r * 3 + c]).toBe(roundOnce(want(r, c), -30, g.exp))
    expect(() => embeddingGather(table, Int32Array.of(5))).toThrow(/outside/)
  })
})
