import { mulRneExactEach } from './mul-each.ts'
import { rne, sat32 } from './rounding.ts'
import type { RopeTable } from './rope-table.ts'
import { qtensor, type QTensor } from './tensor.ts'
import { ROPE_GUARD, ropeRowsWasm } from './wasm/elementwise-kernels.ts'

/** Guard bits of the two rounded products before the final rounding (sums stay below 2^53). */
const GUARD = ROPE_GUARD

/**
 * Rotary embedding, rotate-half layout (Qwen2/NeoX): in every head, (x_i, x_{i+d/2}) is rotated by
 * pos·θ_i. x is [T, heads·d]; positions[t] indexes the table. `inverse` rotates backwards, which is
 * the exact adjoint: RoPE's backward pass. Output keeps x's exponent (|rotated| ≤ √2·max|x|).
 */
export function rope(x: QTensor, positions: Int32Array, table: RopeTable, inverse = false): QTensor {
  const d = table.headDim
  const half = d / 2
  const [t, width] = [x.shape[0]!, x.shape[1]!]
  if (x.shape.length !== 2 || width % d !== 0 || positions.length !== t)
    throw new RangeError(`rope: x [${x.shape.join(', ')}] must be [T, heads·${d}] with T positions`)
  // Per element e with pair partner p (the other half of its head): the first half's output is
  // rne(mulRne(x_e, c) − mulRne(x_p, s)), the second half's rne(mulRne(x_e, c) + mulRne(x_p, s))
  // (s signed by `inverse`). mulRne is odd in its factor, so the sign goes into a per-element sine
  // and both halves read rne(x·c + partner·s'): two whole-tensor exact products.
  const sign = inverse ? -1 : 1
  const rowCos = new Int32Array(t * half)
  const rowSin = new Int32Array(t * half)
  for (let row = 0; row < t; row++) {
    const pos = positions[row]!
    if (pos < 0 || pos >= table.maxSeq)
      throw new RangeError(`rope: position ${pos} outside table of ${table.maxSeq}`)
    for (let i = 0; i < half; i++) {
      rowCos[row * half + i] = table.cos[pos * half + i]!
      rowSin[row * half + i] = sign * table.sin[pos * half + i]!
    }
  }
  const out = qtensor(x.shape, x.exp)
  if (ropeRowsWasm(x.data, rowCos, rowSin, width, half, out.data)) return out
  const n = x.data.length
  const partner = new Int32Array(n)
  const cos = new Int32Array(n)
  const sin = new Int32Array(n)
  for (let row = 0; row < t; row++) {
    for (let h = 0; h < width; h += d) {
      for (let i = 0; i < half; i++) {
        const c = rowCos[row * half + i]!
        const sv = rowSin[row * half + i]!
        const ia = row * width + h + i
        const ib = ia + half
        partner[ia] = x.data[ib]!
        partner[ib] = x.data[ia]!
        cos[ia] = c
        cos[ib] = c
        sin[ia] = -sv
        sin[ib] = sv
      }
    }
  }
  const xc = mulRneExactEach(x.data, cos, 30 - GUARD, new Float64Array(n))
  const ps = mulRneExactEach(partner, sin, 30 - GUARD, new Float64Array(n))
  for (let e = 0; e < n; e++) out.data[e] = sat32(rne(xc[e]! + ps[e]!, GUARD))
  return out
}
