// The matmul cases every WGSL-vs-twin comparison runs (Chromium page, Node Dawn): every transpose and
// operand mix (narrow int16 × narrow, wide i32 × narrow, row-scaled), an explicit output exponent, and
// saturation. Seeded, so every runtime builds the same inputs.
import type { MatmulOperand, MatmulOptions } from '../ref/matmul.ts'
import { narrowRows } from '../ref/narrow.ts'
import { seededRandom } from '../ref/seeded-random.ts'
import { isRowScaled, qtensor, type QTensor } from '../ref/tensor.ts'
import type { WorkgroupSize } from './matmul-kernel.ts'

export interface MatmulCase {
  readonly a: MatmulOperand
  readonly b: MatmulOperand
  readonly options: MatmulOptions
}

/** Two schedules: the bits must not depend on them. */
export const MATMUL_WORKGROUPS: readonly WorkgroupSize[] = [
  { x: 8, y: 8 },
  { x: 16, y: 4 },
]

/** Index of the case whose output saturates (±(2^31 − 1)). */
export const SATURATING_CASE = 5

export function matmulCases(seed = 91): MatmulCase[] {
  const rand = seededRandom(seed)
  const tensor = (shape: [number, number], exp: number, bits: number): QTensor => {
    const t = qtensor(shape, exp)
    for (let i = 0; i < t.data.length; i++) t.data[i] = Math.floor((rand() * 2 - 1) * 2 ** bits)
    return t
  }
  return [
    { a: tensor([13, 40], -15, 15), b: tensor([40, 9], -14, 15), options: {} },
    { a: tensor([40, 13], -15, 15), b: tensor([9, 40], -14, 15), options: { transA: true, transB: true } },
    { a: tensor([17, 33], -20, 31), b: tensor([11, 33], -15, 15), options: { transB: true } }, // wide × narrow
    { a: tensor([33, 6], -16, 15), b: tensor([33, 10], -20, 31), options: { transA: true } }, // narrow × wide
    {
      a: narrowRows(tensor([7, 16], -20, 31)),
      b: narrowRows(tensor([5, 16], -20, 31)),
      options: { transB: true, outExp: -16 },
    },
    { a: tensor([4, 8], 0, 15), b: tensor([8, 4], 0, 15), options: { outExp: -6 } }, // saturates
    { a: tensor([6, 5], -3, 31), b: tensor([5, 3], -2, 15), options: { outExp: -12 } }, // left shift, saturation
  ]
}

/** JSON-safe form of an operand (typed arrays as plain arrays), to pass cases between processes. */
export function encodeOperand(t: MatmulOperand): unknown {
  return isRowScaled(t)
    ? { shape: t.shape, rowExps: [...t.rowExps], data: [...t.data] }
    : { shape: t.shape, exp: t.exp, data: [...t.data] }
}

/** A result as plain numbers, comparable across runtimes. */
export interface MatmulBits {
  exp: number
  data: number[]
}

export const bitsOf = (t: QTensor): MatmulBits => ({ exp: t.exp, data: [...t.data] })
