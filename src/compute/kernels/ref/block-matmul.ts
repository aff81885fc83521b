/**
 * A product of two blocks read in place from larger tensors, with `matmul`'s bits: attention
 * multiplies one (sequence, head) block at a time, thousands of small products a step, and copying
 * each block out, planning it and allocating its output cost more than its arithmetic. Here the
 * operands are views (strides into the tensors' data), the caller gives the exponents and bounds on
 * the magnitudes once, the output rows land in place, and a causal block names per row tile the
 * columns it needs and the reduction range that holds its non-zero terms, so the masked half of a
 * block is neither summed nor rounded. Every sum is exact, so skipping terms that are zero and
 * summing in another order change no bit.
 */
import { matmul } from './matmul.ts'
import { rneLimbs, sat32 } from './rounding.ts'
import { packMatmul, WASM_TILE, type Operand, type PlacedTile, type TileRows } from './wasm/kernels.ts'

export type { Operand } from './wasm/kernels.ts'

export interface BlockProduct {
  /** op(A): m rows (the output rows) of k. */
  readonly a: Operand
  /** op(B): n rows (the output columns) of k. */
  readonly b: Operand
  readonly k: number
  /** Exponent of output row i (from A) and of output column j (from B). */
  readonly aExps: Int32Array
  readonly bExps: Int32Array
  readonly outExp: number
  /** Bounds on max|a| and max|b|: they decide whether a sum of k products can pass 2^53. */
  readonly aMax: number
  readonly bMax: number
  /** Output element (i, j) is out[at + i·stride + j]. */
  readonly out: Int32Array
  readonly at: number
  readonly stride: number
  /**
   * Row tile t's (rows [4t, 4t + 4)) columns and reduction range; the caller vouches that every
   * term outside the range is 0. Columns past `cols` are not written. Absent: all of both.
   */
  readonly tile?: (t: number) => Omit<TileRows, 'index'>
}

/** Splits an exact chunk sum (|c| ≤ 2^53) into the carried pair c = hi·2^16 + lo, as matmul does. */
const CARRY = 2 ** 16

export function blockMatmul(p: BlockProduct): void {
  const { a, b, k, aExps, bExps, outExp, out, at, stride } = p
  const m = a.rows
  const limits = (t: number): PlacedTile => {
    const range = p.tile?.(t)
    return range
      ? { index: t, cols: range.cols, from: range.from, to: range.to, at, stride }
      : { index: t, cols: b.rows, from: 0, to: k, at, stride }
  }
  const packed = packMatmul(a, b, k, p.tile && limits)
  if (!packed) return viaMatmul(p, limits)
  const product = p.aMax * p.bMax
  const run = product === 0 ? k : Math.max(1, Math.min(k, Math.floor(2 ** 53 / product)))
  for (let t = 0; t * WASM_TILE < m; t++) {
    const tile = limits(t)
    if (tile.cols <= 0) continue
    if (tile.to - tile.from <= run) packed.rounded(aExps, bExps, outExp, out, tile)
    else carried(packed.sums.bind(packed), packed.stride, tile, run, p)
  }
}

/**
 * A tile whose range passes the exact run: each run's sums carried into (hi·2^16 + lo), then one
 * round-half-even per element, as `matmul` does for a wide operand.
 */
function carried(
  sums: (from: number, to: number, tile: TileRows) => Float64Array,
  w: number,
  tile: TileRows,
  run: number,
  p: BlockProduct,
): void {
  const i0 = tile.index * WASM_TILE
  const height = Math.min(WASM_TILE, p.a.rows - i0)
  const hi = new Float64Array(height * tile.cols)
  const lo = new Float64Array(height * tile.cols)
  for (let from = tile.from; from < tile.to; from += run) {
    const s = sums(from, Math.min(tile.to, from + run), tile)
    for (let r = 0; r < height; r++)
      for (let j = 0; j < tile.cols; j++) {
        const v = s[(i0 + r) * w + j]!
        const h = Math.floor(v / CARRY)
        hi[r * tile.cols + j]! += h
        lo[r * tile.cols + j]! += v - h * CARRY
      }
  }
  for (let r = 0; r < height; r++)
    for (let j = 0; j < tile.cols; j++) {
      const e = r * tile.cols + j
      p.out[p.at + (i0 + r) * p.stride + j] = sat32(
        rneLimbs(hi[e]!, lo[e]!, 16, p.outExp - p.aExps[i0 + r]! - p.bExps[j]!),
      )
    }
}

/** op(X) as a k-contiguous [rows, k] array (the layout `matmul` reads). */
function gather(t: Operand, k: number): Int32Array {
  const { data, rows, rowStride, kStride, groups = 1, groupStride = 0 } = t
  const out = new Int32Array(rows * k)
  for (let r = 0; r < rows; r++)
    for (let kk = 0; kk < k / groups; kk++)
      for (let g = 0; g < groups; g++)
        out[r * k + kk * groups + g] = data[r * rowStride + kk * kStride + g * groupStride]!
  return out
}

/** Without the wasm kernels: the blocks gathered and multiplied by `matmul`, the tiles' columns placed. */
function viaMatmul(p: BlockProduct, limits: (t: number) => TileRows): void {
  const { a, b, k } = p
  const c = matmul(
    { shape: [a.rows, k], rowExps: p.aExps, data: gather(a, k) },
    { shape: [b.rows, k], rowExps: p.bExps, data: gather(b, k) },
    { transB: true, outExp: p.outExp },
  )
  for (let i = 0; i < a.rows; i++) {
    const { cols } = limits(Math.floor(i / WASM_TILE))
    if (cols > 0) p.out.set(c.data.subarray(i * b.rows, i * b.rows + cols), p.at + i * p.stride)
  }
}
