import { describe, expect, it } from 'vitest'
import { rope } from './rope.ts'
import { ropeTable } from './rope-table.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { fromFloat, toFloat } from './tensor.ts'

const rand = seededRandom(33)

describe('RoPE', () => {
  const [hd, maxSeq, theta] = [16, 64, 10000]
  const table = ropeTable(hd, maxSeq, theta)

  it('integer tables match Math.cos/sin within 2^-30 (bigint construction)', () => {
    let worst = 0
    for (let pos = 0; pos < maxSeq; pos++)
      for (let i = 0; i < hd / 2; i++) {
        const angle = pos * theta ** (-(2 * i) / hd)
        worst = Math.max(worst, Math.abs(table.cos[pos * 8 + i]! * 2 ** -30 - Math.cos(angle)))
        worst = Math.max(worst, Math.abs(table.sin[pos * 8 + i]! * 2 ** -30 - Math.sin(angle)))
      }
    expect(worst).toBeLessThan(2 ** -30)
  })

  it('rotates within 2^-20 of f64, and the inverse rotation is its adjoint (the backward pass)', () => {
    const t = 10
    const x = fromFloat([t, 2 * hd], -20, uniformArray(rand, t * 2 * hd, -2, 2))
    const positions = Int32Array.from({ length: t }, () => Math.floor(rand() * maxSeq))
    const y = toFloat(rope(x, positions, table))
    const xf = toFloat(x)
    let worst = 0
    for (let row = 0; row < t; row++)
      for (let h = 0; h < 2; h++)
        for (let i = 0; i < hd / 2; i++) {
          const angle = positions[row]! * theta ** (-(2 * i) / hd)
          const base = row * 2 * hd + h * hd + i
          const [a, b] = [xf[base]!, xf[base + hd / 2]!]
          worst = Math.max(worst, Math.abs(y[base]! - (a * Math.cos(angle) - b * Math.sin(angle))))
          worst = Math.max(worst, Math.abs(y[base + hd / 2]! - (b * Math.cos(angle) + a * Math.sin(angle))))
        }
    expect(worst).toBeLessThan(2 ** -20)
    const g = fromFloat([t, 2 * hd], -20, uniformArray(rand, t * 2 * hd, -1, 1))
    const lhs = y.reduce((s, v, i) => s + v * toFloat(g)[i]!, 0)
    const rhs = toFloat(rope(g, positions, table, true)).reduce((s, v, i) => s + v * xf[i]!, 0)
    expect(Math.abs(lhs - rhs)).toBeLessThan(1e-4)
  })

  it('rejects odd head dims, positions past the table and non-integer theta', () => {
    expect(() => ropeTable(7, 4, 10000)).toThrow(/even/)
    expect(() => ropeTable(8, 4, 1e4 + 0.5)).toThrow(/integer/)
    expect(() => rope(fromFloat([1, hd], 0, new Float64Array(hd)), Int32Array.of(maxSeq), table)).toThrow(
      /position/,
    )
  })
})
