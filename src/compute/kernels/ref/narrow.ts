import { I16_MAX, bitLength, rne, rneI32 } from './rounding.ts'
import { maxAbs, type QTensor, type RowScaled } from './tensor.ts'
import { narrowRowsWasm } from './wasm/elementwise-kernels.ts'
import { mulRowWasm } from './wasm/kernels.ts'

/** the factor that makes the wasm row product a plain rounding */
const ONE = Int32Array.of(1)

/**
 * out[i] = round-half-even(x[i]·2^-s) for 0 ≤ s ≤ 30 (saturated, though a shift this wide cannot
 * overflow): the wasm row product by 1, twice as fast as the JS loop over a whole tensor.
 */
export function roundShift(x: Int32Array, s: number, out: Int32Array): Int32Array {
  if (!mulRowWasm(x, ONE, s, out)) for (let i = 0; i < x.length; i++) out[i] = rneI32(x[i]!, s)
  return out
}

/**
 * Smallest right shift s ≥ 0 such that round-half-even(m·2^-s) ≤ limit, for limit = 2^k − 1.
 * Rounding can carry m up to 2^k, hence the second check.
 */
export function fitShift(m: number, limit: number): number {
  const s = Math.max(0, bitLength(m) - bitLength(limit))
  return rne(m, s) > limit ? s + 1 : s
}

/**
 * Block-scaled int16 mantissas with one exponent per tensor (the format the research found to track
 * f64): a max-|x| reduction picks the exponent, then every element is rounded half-even once.
 * Exact (no rounding at all) when the values already fit in int16.
 */
export function narrow16(t: QTensor): QTensor {
  const hit = narrowed.get(t.data)
  if (hit && hit.exp === t.exp) return hit.out
  const out = narrowWhole(t)
  narrowed.set(t.data, { exp: t.exp, out })
  return out
}

/**
 * narrow16 unremembered: the row kernel over the tensor as one row (its max and its rounding in one
 * pass over wasm memory, the tensor copied in once), or the max and a rounding pass in TS.
 */
function narrowWhole(t: QTensor): QTensor {
  const shift = new Int32Array(1)
  const data = new Int32Array(t.data.length)
  if (t.data.length > 0 && narrowRowsWasm(t.data, t.data.length, data, shift))
    return { shape: t.shape, exp: t.exp + shift[0]!, data }
  const s = fitShift(maxAbs(t.data), I16_MAX)
  if (s === 0) return { shape: t.shape, exp: t.exp, data: t.data.slice() }
  return { shape: t.shape, exp: t.exp + s, data: roundShift(t.data, s, data) }
}

/**
 * narrow16's result remembered per data array: every decode step and every linear of a training step
 * narrows the same weights again. Sound because tensors are values (no op writes its inputs, nothing
 * writes a tensor after handing it to an op); the exponent is checked too.
 */
const narrowed = new WeakMap<Int32Array, { readonly exp: number; readonly out: QTensor }>()

/** narrow16 applied to every row on its own (for forward activations that must stay row-local). */
export function narrowRows(t: QTensor): RowScaled {
  if (t.shape.length !== 2) throw new RangeError(`narrowRows needs a 2-D tensor, got [${t.shape.join(', ')}]`)
  const [rows, cols] = [t.shape[0]!, t.shape[1]!]
  const out: RowScaled = {
    shape: [rows, cols],
    rowExps: new Int32Array(rows),
    data: new Int32Array(rows * cols),
  }
  if (narrowRowsWasm(t.data, cols, out.data, out.rowExps)) {
    for (let i = 0; i < rows; i++) out.rowExps[i]! += t.exp
    return out
  }
  for (let i = 0; i < rows; i++) {
    const row = t.data.subarray(i * cols, (i + 1) * cols)
    const s = fitShift(maxAbs(row), I16_MAX)
    out.rowExps[i] = t.exp + s
    for (let j = 0; j < cols; j++) out.data[i * cols + j] = rneI32(row[j]!, s)
  }
  return out
}
