import { describe, expect, it } from 'vitest'
import { SeededRandom } from '../../../core/tasks/seeded-random.ts'
import { matmulNT, transpose } from './dense.ts'

function randomMatrix(rows: number, cols: number, key: string): Float64Array {
  const random = new SeededRandom(key)
  return Float64Array.from({ length: rows * cols }, () => random.nextUint32() / 2 ** 32 - 0.5)
}

describe('matmulNT', () => {
  it.each([
    [1, 3, 1],
    [2, 5, 4],
    [3, 7, 6],
    [5, 16, 9],
  ])('gives every output as the in-order dot product, bit for bit (%i×%i·(%i×k)ᵀ)', (m, k, n) => {
    const a = randomMatrix(m, k, `a/${m}/${k}`)
    const b = randomMatrix(n, k, `b/${n}/${k}`)
    const y = matmulNT(a, b, m, k, n)
    for (let r = 0; r < m; r++)
      for (let c = 0; c < n; c++) {
        let acc = 0
        for (let i = 0; i < k; i++) acc += a[r * k + i]! * b[c * k + i]!
        expect(y[r * n + c]).toBe(acc)
      }
  })
})

describe('transpose', () => {
  it('swaps rows and columns', () => {
    expect([...transpose(Float64Array.of(1, 2, 3, 4, 5, 6), 2, 3)]).toEqual([1, 4, 2, 5, 3, 6])
  })
})
