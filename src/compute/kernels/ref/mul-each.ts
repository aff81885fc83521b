import { mulRne, sat32 } from './rounding.ts'
import { mulRowExactWasm, mulRowWasm } from './wasm/kernels.ts'

/**
 * out[i] = sat32(mulRne(a[i], b[i mod b.length], s)): the elementwise product every op rounds once
 * (b one scalar, a per-column weight, or a tensor of a's size). The wasm kernel does it with native
 * i64 products where it covers the shift, the loop below (the same bits) elsewhere.
 */
export function mulRneEach(a: Int32Array, b: Int32Array, s: number, out: Int32Array): Int32Array {
  if (mulRowWasm(a, b, s, out)) return out
  const n = b.length
  for (let i = 0; i < a.length; i++) out[i] = sat32(mulRne(a[i]!, b[i % n]!, s))
  return out
}

/**
 * out[i] = mulRne(a[i], b[i mod b.length], s), unsaturated (s ≥ 9 keeps i32 products below 2^53):
 * terms of an exact sum, or a product a later step rounds again.
 */
export function mulRneExactEach(a: Int32Array, b: Int32Array, s: number, out: Float64Array): Float64Array {
  if (mulRowExactWasm(a, b, s, out)) return out
  const n = b.length
  for (let i = 0; i < a.length; i++) out[i] = mulRne(a[i]!, b[i % n]!, s)
  return out
}
