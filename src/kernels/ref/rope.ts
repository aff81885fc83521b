import { mulRne, rne, sat32 } from './rounding.ts'
import type { RopeTable } from './rope-table.ts'
import { qtensor, type QTensor } from './tensor.ts'

/** Guard bits of the two rounded products before the final rounding (sums stay below 2^53). */
const GUARD = 20

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
  const out = qtensor(x.shape, x.exp)
  const sign = inverse ? -1 : 1
  for (let row = 0; row < t; row++) {
    const pos = positions[row]!
    if (pos < 0 || pos >= table.maxSeq)
      throw new RangeError(`rope: position ${pos} outside table of ${table.maxSeq}`)
    for (let h = 0; h < width; h += d) {
      for (let i = 0; i < half; i++) {
        const c = table.cos[pos * half + i]!
        const s = sign * table.sin[pos * half + i]!
        const ia = row * width + h + i
        const a = x.data[ia]!
        const b = x.data[ia + half]!
        const ac = mulRne(a, c, 30 - GUARD)
        const bs = mulRne(b, s, 30 - GUARD)
        const as = mulRne(a, s, 30 - GUARD)
        const bc = mulRne(b, c, 30 - GUARD)
        out.data[ia] = sat32(rne(ac - bs, GUARD))
        out.data[ia + half] = sat32(rne(bc + as, GUARD))
      }
    }
  }
  return out
}
