import { I16_MAX, bitLength, ceilLog2, rne, rneLimbs, sat32 } from './rounding.ts'
import { isRowScaled, maxAbs, qtensor, type QTensor, type RowScaled } from './tensor.ts'
import { packMatmul, type PackedMatmul } from './wasm/kernels.ts'

export interface MatmulOptions {
  /** Use A as stored [K, M] (A^T). */
  readonly transA?: boolean
  /** Use B as stored [N, K] (B^T). */
  readonly transB?: boolean
  /** Output exponent; the default, matmulBoundExp, never saturates. */
  readonly outExp?: number
}

/**
 * Largest reduction length: a wide (i32) operand is split into int16 limbs, each limb product is
 * below 2^31 and a K-long sum of them stays below 2^53 — exact in a JS number and in the WGSL i64 pair.
 */
export const MAX_K = 2 ** 22

export type MatmulOperand = QTensor | RowScaled

function topBit(t: MatmulOperand, max: number): number {
  if (!isRowScaled(t)) return bitLength(max) + t.exp
  let top = -Infinity
  for (const e of t.rowExps) top = Math.max(top, e)
  return bitLength(max) + top
}

/**
 * max|x| remembered per data array: a decode step multiplies by the same narrowed weights for every
 * token, and the reduction over a weight cost as much as the one-row product itself. Sound because
 * tensors are values (no op writes its inputs, nothing writes a tensor after handing it to an op).
 */
const maxima = new WeakMap<Int32Array, number>()
function rememberedMaxAbs(data: Int32Array): number {
  let max = maxima.get(data)
  if (max === undefined) maxima.set(data, (max = maxAbs(data)))
  return max
}

/**
 * Finest output exponent at which a K-long product of these operands cannot overflow i32:
 * |Σ| < K·2^(top bit of A + top bit of B). Uses only the operands' maxima (one reduction each).
 */
export function matmulBoundExp(
  a: MatmulOperand,
  b: MatmulOperand,
  k: number,
  aMax = rememberedMaxAbs(a.data),
  bMax = rememberedMaxAbs(b.data),
): number {
  return topBit(a, aMax) + topBit(b, bMax) + ceilLog2(Math.max(k, 1)) - 30
}

/** Everything a matmul kernel needs besides the data: the twin and the WGSL host share it. */
export interface MatmulPlan {
  readonly m: number
  readonly n: number
  readonly k: number
  /** Element (i, kk) of op(A) is a[i·aRow + kk·aK]; element (kk, j) of op(B) is b[kk·bK + j·bCol]. */
  readonly aRow: number
  readonly aK: number
  readonly bK: number
  readonly bCol: number
  /** Whether the operand is wide i32 (split into limbs) rather than int16 mantissas. */
  readonly aWide: boolean
  readonly bWide: boolean
  readonly outExp: number
  /** Largest magnitude in each operand's data. */
  readonly aMax: number
  readonly bMax: number
  /** Exponent of output row i (from A) and of output column j (from B). */
  readonly aExps: Int32Array
  readonly bExps: Int32Array
}

function operandExps(t: MatmulOperand, count: number, rowsAreOutputs: boolean, what: string): Int32Array {
  if (t.shape.length !== 2) throw new RangeError(`matmul ${what} must be 2-D, got [${t.shape.join(', ')}]`)
  if (!isRowScaled(t)) return new Int32Array(count).fill(t.exp)
  if (!rowsAreOutputs)
    throw new RangeError(`matmul ${what}: per-row exponents are only allowed on an output dimension`)
  return t.rowExps
}

function isWide(t: MatmulOperand, max: number): boolean {
  return !isRowScaled(t) && max > I16_MAX
}

export function planMatmul(a: MatmulOperand, b: MatmulOperand, options: MatmulOptions = {}): MatmulPlan {
  const { transA = false, transB = false } = options
  const [ar, ac] = [a.shape[0]!, a.shape[1]!]
  const [br, bc] = [b.shape[0]!, b.shape[1]!]
  const [m, k] = transA ? [ac, ar] : [ar, ac]
  const [kb, n] = transB ? [bc, br] : [br, bc]
  const aExps = operandExps(a, m, !transA, 'A')
  const bExps = operandExps(b, n, transB, 'B')
  if (k !== kb) throw new RangeError(`matmul: inner dimensions differ (${k} vs ${kb})`)
  if (k > MAX_K) throw new RangeError(`matmul: K = ${k} exceeds the exact-accumulation bound ${MAX_K}`)
  // one pass over each operand for its largest magnitude, shared by the width check and the bound
  const [aMax, bMax] = [rememberedMaxAbs(a.data), rememberedMaxAbs(b.data)]
  const [aWide, bWide] = [isWide(a, aMax), isWide(b, bMax)]
  if (aWide && bWide)
    throw new RangeError('matmul: at most one operand may be wide i32; narrow the other first')
  const [aRow, aK] = transA ? [1, ac] : [ac, 1]
  const [bK, bCol] = transB ? [1, bc] : [bc, 1]
  const outExp = options.outExp ?? matmulBoundExp(a, b, k, aMax, bMax)
  return { m, n, k, aRow, aK, bK, bCol, aWide, bWide, outExp, aMax, bMax, aExps, bExps }
}

/** op(X) with the reduction index contiguous: rows of length k (X itself when it is stored that way). */
function reductionRows(
  x: Int32Array,
  rows: number,
  k: number,
  rowStride: number,
  kStride: number,
): Int32Array {
  if (kStride === 1 && rowStride === k) return x
  const out = new Int32Array(rows * k)
  for (let r = 0; r < rows; r++) {
    const base = r * rowStride
    for (let kk = 0; kk < k; kk++) out[r * k + kk] = x[base + kk * kStride]!
  }
  return out
}

/** Splits an exact chunk sum (|c| ≤ 2^53) into the carried pair: c = hi·2^16 + lo, 0 ≤ lo < 2^16. */
const CARRY = 2 ** 16

/** Output rows and columns per register tile: 16 running sums share each loaded operand 4 ways. */
const TILE = 4

/**
 * Sums of one 4×4 output tile over kk ∈ [from, to): rows x0…x3 of X against rows y0…y3 of Y (both
 * k-contiguous, offsets given), into sums[4·r + c]. The caller keeps each range short enough that
 * every partial sum stays within 2^53, so the sums are exact whatever the order.
 */
function tileSums(
  x: Int32Array,
  xs: Int32Array,
  y: Int32Array,
  ys: Int32Array,
  from: number,
  to: number,
  sums: Float64Array,
): void {
  const x0 = xs[0]!
  const x1 = xs[1]!
  const x2 = xs[2]!
  const x3 = xs[3]!
  const y0 = ys[0]!
  const y1 = ys[1]!
  const y2 = ys[2]!
  const y3 = ys[3]!
  let s00 = 0,
    s01 = 0,
    s02 = 0,
    s03 = 0,
    s10 = 0,
    s11 = 0,
    s12 = 0,
    s13 = 0
  let s20 = 0,
    s21 = 0,
    s22 = 0,
    s23 = 0,
    s30 = 0,
    s31 = 0,
    s32 = 0,
    s33 = 0
  for (let kk = from; kk < to; kk++) {
    const b0 = y[y0 + kk]!
    const b1 = y[y1 + kk]!
    const b2 = y[y2 + kk]!
    const b3 = y[y3 + kk]!
    let a = x[x0 + kk]!
    s00 += a * b0
    s01 += a * b1
    s02 += a * b2
    s03 += a * b3
    a = x[x1 + kk]!
    s10 += a * b0
    s11 += a * b1
    s12 += a * b2
    s13 += a * b3
    a = x[x2 + kk]!
    s20 += a * b0
    s21 += a * b1
    s22 += a * b2
    s23 += a * b3
    a = x[x3 + kk]!
    s30 += a * b0
    s31 += a * b1
    s32 += a * b2
    s33 += a * b3
  }
  sums[0] = s00
  sums[1] = s01
  sums[2] = s02
  sums[3] = s03
  sums[4] = s10
  sums[5] = s11
  sums[6] = s12
  sums[7] = s13
  sums[8] = s20
  sums[9] = s21
  sums[10] = s22
  sums[11] = s23
  sums[12] = s30
  sums[13] = s31
  sums[14] = s32
  sums[15] = s33
}

/** tileSums for a single row of X (fewer than TILE output rows, as in a decode step): sums[0..3]. */
function rowSums(
  x: Int32Array,
  xs: Int32Array,
  y: Int32Array,
  ys: Int32Array,
  from: number,
  to: number,
  sums: Float64Array,
): void {
  const x0 = xs[0]!
  const [y0, y1, y2, y3] = [ys[0]!, ys[1]!, ys[2]!, ys[3]!]
  let s0 = 0
  let s1 = 0
  let s2 = 0
  let s3 = 0
  for (let kk = from; kk < to; kk++) {
    const a = x[x0 + kk]!
    s0 += a * y[y0 + kk]!
    s1 += a * y[y1 + kk]!
    s2 += a * y[y2 + kk]!
    s3 += a * y[y3 + kk]!
  }
  sums[0] = s0
  sums[1] = s1
  sums[2] = s2
  sums[3] = s3
}

/**
 * C = op(A)·op(B), exact up to one final round-half-even. Operands are int16 mantissas (per tensor,
 * or per row along an output dimension) or wide i32 values (at most one wide operand). Every product
 * is below 2^46, so a run of ⌊2^53 / (max|A|·max|B|)⌋ ≥ 128 products sums exactly in a number; longer
 * reductions carry each run's sum into a (hi·2^16 + lo) pair, the two-limb form WGSL keeps in u32s.
 * Every partial sum is exact, so the result depends neither on the reduction order nor on tiling or
 * workgroup size. shaders/matmul.wgsl is the same algorithm (it splits the wide operand into limbs).
 */
export function matmul(a: MatmulOperand, b: MatmulOperand, options: MatmulOptions = {}): QTensor {
  const plan = planMatmul(a, b, options)
  const { m, n, k } = plan
  const product = plan.aMax * plan.bMax
  const run = product === 0 ? k : Math.max(1, Math.min(k, Math.floor(2 ** 53 / product)))
  const packed =
    m < TILE
      ? undefined
      : packMatmul(
          { data: a.data, rows: m, rowStride: plan.aRow, kStride: plan.aK },
          { data: b.data, rows: n, rowStride: plan.bCol, kStride: plan.bK },
          k,
        )
  return packed ? roundSums(plan, run, packed) : tiledMatmul(a, b, plan, run)
}

/**
 * The output from the wasm kernel's exact sums: one range when a run covers K, else each run's sum
 * carried into (hi·2^16 + lo) as the TS tiles do, then one round-half-even per element.
 */
function roundSums(plan: MatmulPlan, run: number, packed: PackedMatmul): QTensor {
  const { m, n, k, outExp, aExps, bExps } = plan
  const out = qtensor([m, n], outExp)
  const w = packed.stride
  if (run >= k) {
    packed.rounded(aExps, bExps, outExp, out.data)
    return out
  }
  const hi = new Float64Array(m * n)
  const lo = new Float64Array(m * n)
  for (let from = 0; from < k; from += run) {
    const sums = packed.sums(from, Math.min(k, from + run))
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        const s = sums[i * w + j]!
        const h = Math.floor(s / CARRY)
        hi[i * n + j]! += h
        lo[i * n + j]! += s - h * CARRY
      }
  }
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      const t = i * n + j
      out.data[t] = sat32(rneLimbs(hi[t]!, lo[t]!, 16, outExp - aExps[i]! - bExps[j]!))
    }
  return out
}

/** The TS tiles: where WebAssembly SIMD is missing, and for fewer rows than a wasm tile (decode steps). */
function tiledMatmul(a: MatmulOperand, b: MatmulOperand, plan: MatmulPlan, run: number): QTensor {
  const { m, n, k, outExp, aExps, bExps } = plan
  const x = reductionRows(a.data, m, k, plan.aRow, plan.aK)
  const y = reductionRows(b.data, n, k, plan.bCol, plan.bK)
  const out = qtensor([m, n], outExp)
  const sums = new Float64Array(TILE * TILE)
  const hi = new Float64Array(TILE * TILE)
  const lo = new Float64Array(TILE * TILE)
  // row offsets of the tile; past the last row or column a tile repeats it, and the repeats are not stored
  const xs = new Int32Array(TILE)
  const ys = new Int32Array(TILE)
  // with fewer rows than a tile, one row at a time: a square tile would only repeat the rows
  const rows = m < TILE ? 1 : TILE
  const sumsOf = rows === 1 ? rowSums : tileSums
  for (let i = 0; i < m; i += rows) {
    for (let r = 0; r < TILE; r++) xs[r] = Math.min(i + r, m - 1) * k
    for (let j = 0; j < n; j += TILE) {
      for (let c = 0; c < TILE; c++) ys[c] = Math.min(j + c, n - 1) * k
      sumsOf(x, xs, y, ys, 0, run, sums)
      if (run < k) {
        hi.fill(0)
        lo.fill(0)
        for (let from = 0; from < k; from += run) {
          if (from > 0) sumsOf(x, xs, y, ys, from, Math.min(k, from + run), sums)
          for (let t = 0; t < TILE * TILE; t++) {
            const h = Math.floor(sums[t]! / CARRY)
            hi[t]! += h
            lo[t]! += sums[t]! - h * CARRY
          }
        }
      }
      for (let r = 0; r < rows && i + r < m; r++)
        for (let c = 0; c < TILE && j + c < n; c++) {
          const t = r * TILE + c
          const shift = outExp - aExps[i + r]! - bExps[j + c]!
          const v = run < k ? rneLimbs(hi[t]!, lo[t]!, 16, shift) : rne(sums[t]!, shift)
          out.data[(i + r) * n + j + c] = sat32(v)
        }
    }
  }
  return out
}
