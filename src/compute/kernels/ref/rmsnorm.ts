import { expForMagnitude, magnitude } from './elementwise.ts'
import { mulRneEach, mulRneExactEach } from './mul-each.ts'
import { fitShift } from './narrow.ts'
import { I16_MAX, bitLength, ceilLog2, divRne, rne, rneI32, sat32 } from './rounding.ts'
import { rsqrtFixed } from './rsqrt.ts'
import { assertShape, maxAbs, qtensor, roundHalfEven, type QTensor } from './tensor.ts'
import { centerRowsWasm, scaleRowsWasm } from './wasm/elementwise-kernels.ts'

/** Normalised rows x̂ = x/rms(x) are held at 2^-24: |x̂| ≤ √D, so D ≤ 2^14 never saturates. */
export const XHAT_EXP = -24
/** ε is encoded at 2^-40 (1e-6 → 1099512). */
const EPS_EXP = -40

interface RowNorm {
  /** 1/rms at rExp. */
  readonly r: number
  readonly rExp: number
}

/**
 * 1/√(mean(x²) + ε) of one row. The squares are taken of the row's int16 mantissas (one rounding
 * per element, relative 2^-15 at most; exact for rows that already fit), summed exactly, then
 * normalised to 31 bits, divided by D and passed to the integer rsqrt.
 */
function rowRsqrt(x: QTensor, row: number, epsInt: number): RowNorm {
  const d = x.shape[1]!
  const vals = x.data.subarray(row * d, (row + 1) * d)
  const k = fitShift(maxAbs(vals), I16_MAX)
  let ss = 0
  for (let j = 0; j < d; j++) {
    // k ≤ 17 (|v| < 2^32): the i32 rounding, whose bits are rne's
    const m = rneI32(vals[j]!, k)
    ss += m * m
  }
  const sqExp = 2 * (x.exp + k)
  const u = ss + rne(epsInt * d, sqExp - EPS_EXP)
  const su = Math.max(0, bitLength(u) - 31)
  const c = ceilLog2(d) - 1
  const mean = divRne(rne(u, su), d, Math.max(c, 0))
  const meanExp = sqExp + su - Math.max(c, 0)
  const b = bitLength(mean) + meanExp // mean < 2^b, so 1/√mean ≤ 2^((1−b)/2)
  const rExp = expForMagnitude(Math.ceil((1 - b) / 2) + 1)
  return { r: rsqrtFixed(mean, meanExp, rExp), rExp }
}

/** ε as an integer at 2^EPS_EXP, rejecting the non-positive ε a user could configure. */
export function encodeEps(eps: number): number {
  if (!(eps > 0)) throw new RangeError(`RMSNorm ε must be positive, got ${eps}`)
  return roundHalfEven(eps * 2 ** -EPS_EXP)
}

interface Normalized {
  readonly xhat: Int32Array
  readonly norms: RowNorm[]
}

/**
 * x̂ and the row norms remembered per input array: the backward takes the forward's input again.
 * Sound because tensors are values (no op writes its inputs, nothing writes a tensor after handing
 * it to an op); the exponent, the shape and ε are checked too.
 */
const normalized = new WeakMap<Int32Array, { readonly key: string; readonly value: Normalized }>()

function normalizedRows(x: QTensor, eps: number): Normalized {
  const key = `${x.exp}/${x.shape.join('x')}/${eps}`
  const hit = normalized.get(x.data)
  if (hit && hit.key === key) return hit.value
  const value = computeNormalizedRows(x, eps)
  normalized.set(x.data, { key, value })
  return value
}

function computeNormalizedRows(x: QTensor, eps: number): Normalized {
  if (x.shape.length !== 2)
    throw new RangeError(`rmsNorm input must be [rows, D], got [${x.shape.join(', ')}]`)
  const [rows, d] = [x.shape[0]!, x.shape[1]!]
  const epsInt = encodeEps(eps)
  const norms = Array.from({ length: rows }, (_, i) => rowRsqrt(x, i, epsInt))
  const xhat = new Int32Array(rows * d)
  scaleEachRow(x.data, d, norms, (n) => -(x.exp + n.rExp - XHAT_EXP), xhat)
  return { xhat, norms }
}

/** out's row i = sat32(mulRne(x's row i, norms[i].r, shift(norms[i]))): one kernel call for every row. */
function scaleEachRow(
  x: Int32Array,
  d: number,
  norms: readonly RowNorm[],
  shift: (n: RowNorm) => number,
  out: Int32Array,
): void {
  const r = Int32Array.from(norms, (n) => n.r)
  const s = Int32Array.from(norms, shift)
  if (scaleRowsWasm(x, r, s, d, out)) return
  for (let i = 0; i < norms.length; i++)
    mulRneEach(x.subarray(i * d, (i + 1) * d), r.subarray(i, i + 1), s[i]!, out.subarray(i * d, (i + 1) * d))
}

/** y = x/√(mean(x²)+ε) ⊙ weight, at outExp. */
export function rmsNorm(x: QTensor, weight: QTensor, eps: number, outExp: number): QTensor {
  const d = x.shape[1]!
  assertShape(weight, [d], 'rmsNorm weight')
  const { xhat } = normalizedRows(x, eps)
  const out = qtensor(x.shape, outExp)
  mulRneEach(xhat, weight.data, -XHAT_EXP + outExp - weight.exp, out.data)
  return out
}

/** The backward's shape-only shifts: guard bits that keep every sum exact (they never depend on data). */
export interface RmsNormBackwardShifts {
  /** dWeight's product shift: `rows` products below 2^62 sum below 2^52. */
  readonly sp: number
  /** Headroom bits of w = v − x̂·mean(v ⊙ x̂) over v: |w| ≤ (1 + √D)·max|v|. */
  readonly hw: number
  /** Extra bits w is formed with before its one rounding. */
  readonly guard: number
  /** The product shift of the row dot Σ v ⊙ x̂: D products below 2^62 sum below 2^52. */
  readonly sc: number
  /** max(ceil(log2 D) − 1, 0): the extra quotient bits of the row mean. */
  readonly c: number
}

export function rmsNormBackwardShifts(rows: number, d: number): RmsNormBackwardShifts {
  const hw = ceilLog2(Math.ceil(Math.sqrt(d)) + 1)
  return {
    sp: 10 + ceilLog2(rows),
    hw,
    guard: 20 - hw,
    sc: 10 + ceilLog2(d),
    c: Math.max(ceilLog2(d) - 1, 0),
  }
}

export interface RmsNormGrads {
  readonly dx: QTensor
  readonly dWeight: QTensor
}

/**
 * Backward: with x̂ = x·r and v = dy ⊙ weight, dx = r·(v − x̂·mean(v ⊙ x̂)) and dWeight = Σ_rows dy ⊙ x̂.
 * Products that feed sums are rounded with guard bits so every sum is exact; exponents come from
 * the operands' maxima, so nothing saturates.
 */
export function rmsNormBackward(x: QTensor, weight: QTensor, eps: number, dy: QTensor): RmsNormGrads {
  const [rows, d] = [x.shape[0]!, x.shape[1]!]
  assertShape(dy, x.shape, 'rmsNorm dy')
  assertShape(weight, [d], 'rmsNorm weight')
  const { xhat, norms } = normalizedRows(x, eps)
  const xhatMag = bitLength(maxAbs(xhat)) + XHAT_EXP
  const { sp, hw, guard, sc, c } = rmsNormBackwardShifts(rows, d)

  // dWeight: column sums of dy ⊙ x̂
  const dwSumExp = dy.exp + XHAT_EXP + sp
  const dwExp = expForMagnitude(magnitude(dy) + xhatMag + ceilLog2(rows))
  const dWeight = qtensor([d], dwExp)
  // the products rounded once each, then summed: every partial sum is an exact integer below 2^53
  const products = mulRneExactEach(dy.data, xhat, sp, new Float64Array(rows * d))
  const sums = new Float64Array(d)
  for (let i = 0; i < rows; i++) for (let j = 0; j < d; j++) sums[j]! += products[i * d + j]!
  for (let j = 0; j < d; j++) dWeight.data[j] = sat32(rne(sums[j]!, dwExp - dwSumExp))

  // v = dy ⊙ weight
  const ev = expForMagnitude(magnitude(dy) + magnitude(weight))
  const v = mulRneEach(dy.data, weight.data, ev - dy.exp - weight.exp, new Int32Array(rows * d))

  // w = v − x̂·mean(v ⊙ x̂), bounded by (1 + √D)·max|v|
  const ew = ev + hw
  const w = new Int32Array(rows * d)
  const vx = mulRneExactEach(v, xhat, sc, products)
  // per row: the mean, and the shift that puts x̂·mean at w's working exponent
  const means = new Int32Array(rows)
  const shifts = new Int32Array(rows)
  for (let i = 0; i < rows; i++) {
    let dot = 0
    for (let j = 0; j < d; j++) dot += vx[i * d + j]!
    const s31 = Math.max(0, bitLength(Math.abs(dot)) - 31)
    means[i] = divRne(rne(dot, s31), d, c)
    shifts[i] = ev - guard - XHAT_EXP - (ev + XHAT_EXP + sc + s31 - c)
  }
  if (!centerRowsWasm(v, xhat, means, shifts, guard, guard + hw, w)) {
    const t = new Float64Array(d)
    const guardUnit = 2 ** guard
    for (let i = 0; i < rows; i++) {
      // t = x̂·mean at w's working exponent, unsaturated: the guard bits round it once more below
      mulRneExactEach(xhat.subarray(i * d, (i + 1) * d), means.subarray(i, i + 1), shifts[i]!, t)
      for (let j = 0; j < d; j++) w[i * d + j] = sat32(rne(v[i * d + j]! * guardUnit - t[j]!, guard + hw))
    }
  }

  // dx = r·w, r per row
  let rMag = -Infinity
  for (const n of norms) rMag = Math.max(rMag, bitLength(n.r) + n.rExp)
  const dxExp = expForMagnitude(bitLength(maxAbs(w)) + ew + rMag)
  const dx = qtensor(x.shape, dxExp)
  scaleEachRow(w, d, norms, (n) => dxExp - ew - n.rExp, dx.data)
  return { dx, dWeight }
}
