// The fast f32 kernels' check cases: odd shapes that cross tile, chunk and workgroup edges. The page
// and the spec build the same f32 inputs from the same seeds, so only the outputs cross over.
import type { FastMatmulShape } from '../../src/compute/kernels/fast/fast-matmul.ts'
import type { AttentionShape } from '../../src/compute/kernels/ref/attention.ts'
import { seededRandom, uniformArray } from '../../src/compute/kernels/ref/seeded-random.ts'

export interface MatmulCase {
  readonly shape: FastMatmulShape
  readonly a: Float32Array
  /** [N, K] when transB, else [K, N] */
  readonly b: Float32Array
}

export interface SoftmaxCase {
  readonly rows: number
  readonly cols: number
  readonly x: Float32Array
}

export interface AttentionCase {
  readonly shape: AttentionShape
  readonly q: Float32Array
  readonly k: Float32Array
  readonly v: Float32Array
}

const f32 = (rand: () => number, n: number, lo: number, hi: number) =>
  Float32Array.from(uniformArray(rand, n, lo, hi))

export function matmulCases(): MatmulCase[] {
  const rand = seededRandom(31)
  return [
    // 3 row tiles × 2 column tiles × 3 K steps, all partial; then B as stored
    { m: 130, n: 67, k: 40, transB: true },
    { m: 130, n: 67, k: 40, transB: false },
    { m: 1, n: 5, k: 3, transB: true },
  ].map((shape) => ({
    shape,
    a: f32(rand, shape.m * shape.k, -1, 1),
    b: f32(rand, shape.n * shape.k, -1, 1),
  }))
}

export function softmaxCases(): SoftmaxCase[] {
  const rand = seededRandom(32)
  // a row longer than the 256-invocation workgroup, and rows shorter than it
  return [
    { rows: 5, cols: 300 },
    { rows: 3, cols: 7 },
  ].map(({ rows, cols }) => ({ rows, cols, x: f32(rand, rows * cols, -8, 8) }))
}

export function attentionCases(): AttentionCase[] {
  const rand = seededRandom(33)
  const shapes: AttentionShape[] = [
    // two sequences longer than one 64-key chunk; the tiny model's heads
    { batch: 2, seqLen: 70, heads: 4, kvHeads: 2, headDim: 16 },
    { batch: 1, seqLen: 9, heads: 2, kvHeads: 1, headDim: 32 },
  ]
  return shapes.map((shape) => {
    const rows = shape.batch * shape.seqLen
    return {
      shape,
      q: f32(rand, rows * shape.heads * shape.headDim, -2, 2),
      k: f32(rand, rows * shape.kvHeads * shape.headDim, -2, 2),
      v: f32(rand, rows * shape.kvHeads * shape.headDim, -2, 2),
    }
  })
}
