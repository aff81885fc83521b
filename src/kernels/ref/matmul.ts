import { I16_MAX, bitLength, ceilLog2, rne, rneLimbs, sat32 } from './rounding.ts'
import { isRowScaled, maxAbs, qtensor, type QTensor, type RowScaled } from './tensor.ts'

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

/** Bits of the low limb when an i32 operand is split as hi·2^15 + lo, lo ∈ [0, 2^15). */
export const LIMB = 15

export type MatmulOperand = QTensor | RowScaled

function topBit(t: MatmulOperand, max: number): number {
  return bitLength(max) + (isRowScaled(t) ? Math.max(...t.rowExps) : t.exp)
}

/**
 * Finest output exponent at which a K-long product of these operands cannot overflow i32:
 * |Σ| < K·2^(top bit of A + top bit of B). Uses only the operands' maxima (one reduction each).
 */
export function matmulBoundExp(
  a: MatmulOperand,
  b: MatmulOperand,
  k: number,
  aMax = maxAbs(a.data),
  bMax = maxAbs(b.data),
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
  const [aMax, bMax] = [maxAbs(a.data), maxAbs(b.data)]
  const [aWide, bWide] = [isWide(a, aMax), isWide(b, bMax)]
  if (aWide && bWide)
    throw new RangeError('matmul: at most one operand may be wide i32; narrow the other first')
  const [aRow, aK] = transA ? [1, ac] : [ac, 1]
  const [bK, bCol] = transB ? [1, bc] : [bc, 1]
  const outExp = options.outExp ?? matmulBoundExp(a, b, k, aMax, bMax)
  return { m, n, k, aRow, aK, bK, bCol, aWide, bWide, outExp, aMax, bMax, aExps, bExps }
}

/** Limbs of an operand: (hi, lo) with v = hi·2^15 + lo for wide values; (v, 0) for int16 mantissas. */
function limbs(data: Int32Array, wide: boolean): [Int32Array, Int32Array | undefined] {
  if (!wide) return [data, undefined]
  return [data.map((v) => v >> LIMB), data.map((v) => v & ((1 << LIMB) - 1))]
}

/** Σ_kk x[xi + kk·xs]·y[yi + kk·ys]: exact, every partial sum stays below 2^53 (K ≤ MAX_K). */
function dot(
  x: Int32Array,
  xi: number,
  xs: number,
  y: Int32Array,
  yi: number,
  ys: number,
  k: number,
): number {
  let sum = 0
  for (let kk = 0; kk < k; kk++, xi += xs, yi += ys) sum += x[xi]! * y[yi]!
  return sum
}

/** op(X) with the reduction index contiguous: rows of length k (X itself when it is stored that way). */
function reductionRows(
  x: Int32Array,
  rows: number,
  k: number,
  rowStride: number,
  kStride: number,
): Float64Array {
  const out = new Float64Array(rows * k)
  for (let r = 0; r < rows; r++)
    for (let kk = 0; kk < k; kk++) out[r * k + kk] = x[r * rowStride + kk * kStride]!
  return out
}

/**
 * The product when k·max|A|·max|B| ≤ 2^53: every partial sum of the raw products, in any order, is an
 * integer of at most 2^53, so the sum is exact without limbs and rounding it once is what the limb form
 * computes. Four running sums over contiguous rows let the loop run at memory speed.
 */
function directMatmul(plan: MatmulPlan, a: Int32Array, b: Int32Array): QTensor {
  const { m, n, k, outExp, aExps, bExps } = plan
  if (m < 4) {
    // a token at a time: B is read once, so copying it first would double the work
    const out = qtensor([m, n], outExp)
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        const sum = dot(a, i * plan.aRow, plan.aK, b, j * plan.bCol, plan.bK, k)
        out.data[i * n + j] = sat32(rne(sum, outExp - aExps[i]! - bExps[j]!))
      }
    return out
  }
  const x = reductionRows(a, m, k, plan.aRow, plan.aK)
  const y = reductionRows(b, n, k, plan.bCol, plan.bK)
  const out = qtensor([m, n], outExp)
  const tail = k - (k % 4)
  for (let i = 0; i < m; i++) {
    const xi = i * k
    for (let j = 0; j < n; j++) {
      const yj = j * k
      let s0 = 0
      let s1 = 0
      let s2 = 0
      let s3 = 0
      for (let kk = 0; kk < tail; kk += 4) {
        s0 += x[xi + kk]! * y[yj + kk]!
        s1 += x[xi + kk + 1]! * y[yj + kk + 1]!
        s2 += x[xi + kk + 2]! * y[yj + kk + 2]!
        s3 += x[xi + kk + 3]! * y[yj + kk + 3]!
      }
      for (let kk = tail; kk < k; kk++) s0 += x[xi + kk]! * y[yj + kk]!
      out.data[i * n + j] = sat32(rne(s0 + s1 + (s2 + s3), outExp - aExps[i]! - bExps[j]!))
    }
  }
  return out
}

/**
 * C = op(A)·op(B), exact up to one final round-half-even. Operands are int16 mantissas (per tensor,
 * or per row along an output dimension) or wide i32 values, which are split into two int16 limbs
 * (at most one wide operand). Every partial sum is exact, so the result depends neither on the
 * reduction order nor on tiling or workgroup size. shaders/matmul.wgsl is the same algorithm.
 */
export function matmul(a: MatmulOperand, b: MatmulOperand, options: MatmulOptions = {}): QTensor {
  const plan = planMatmul(a, b, options)
  const { m, n, k, aRow, aK, bK, bCol, outExp, aExps, bExps } = plan
  if (k * plan.aMax * plan.bMax <= 2 ** 53) return directMatmul(plan, a.data, b.data)
  // past the direct bound one operand is wide: int16 × int16 stays below it for every K ≤ MAX_K
  const [aHi, aLo] = limbs(a.data, plan.aWide)
  const [bHi, bLo] = limbs(b.data, plan.bWide)
  // the lo-limb sum pairs A's low limb with B (or A with B's low limb)
  const [loA, loB] = [aLo ?? aHi, bLo ?? bHi]
  const out = qtensor([m, n], outExp)
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const hi = dot(aHi, i * aRow, aK, bHi, j * bCol, bK, k)
      const lo = dot(loA, i * aRow, aK, loB, j * bCol, bK, k)
      out.data[i * n + j] = sat32(rneLimbs(hi, lo, LIMB, outExp - aExps[i]! - bExps[j]!))
    }
  }
  return out
}
