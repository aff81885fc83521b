import { mulRneEach } from './mul-each.ts'
import { bitLength, rne, rneBig, sat32 } from './rounding.ts'
import { assertShape, maxAbs, qtensor, type QTensor } from './tensor.ts'
import { addRowWasm } from './wasm/elementwise-kernels.ts'

/** Binary position just above |t|'s largest element: |t| < 2^magnitude(t). */
export function magnitude(t: QTensor): number {
  return bitLength(maxAbs(t.data)) + t.exp
}

/** Exponent whose i32 holds values below 2^bitPos with a bit to spare for the rounding carry. */
export function expForMagnitude(bitPos: number): number {
  return bitPos - 30
}

/**
 * a + b with one round-half-even to outExp. The default exponent is the finest one that cannot
 * overflow given both operands' maxima (a static bound once the maxima are reduced).
 */
export function add(a: QTensor, b: QTensor, outExp?: number): QTensor {
  assertShape(b, a.shape, 'add operand')
  const lo = Math.min(a.exp, b.exp)
  const e = outExp ?? Math.max(lo, expForMagnitude(Math.max(magnitude(a), magnitude(b)) + 1))
  const out = qtensor(a.shape, e)
  const da = a.exp - lo
  const db = b.exp - lo
  // a left shift of the sum is a left shift of each operand: the kernel then rounds by s ≥ 0
  const left = Math.max(0, lo - e)
  if (addRowWasm(a.data, b.data, da + left, db + left, Math.max(0, e - lo), out.data)) return out
  if (Math.max(da, db) <= 21) {
    // both operands aligned to the finer exponent stay below 2^53: exact in a number
    const fa = 2 ** da
    const fb = 2 ** db
    const s = e - lo
    if (s <= 0) {
      // rne's own left shift, its power taken once instead of per element (the residual adds)
      const f = 2 ** -s
      for (let i = 0; i < out.data.length; i++) out.data[i] = sat32((a.data[i]! * fa + b.data[i]! * fb) * f)
    } else
      for (let i = 0; i < out.data.length; i++) out.data[i] = sat32(rne(a.data[i]! * fa + b.data[i]! * fb, s))
  } else {
    for (let i = 0; i < out.data.length; i++) {
      const exact = (BigInt(a.data[i]!) << BigInt(da)) + (BigInt(b.data[i]!) << BigInt(db))
      out.data[i] = sat32(rneBig(exact, e - lo))
    }
  }
  return out
}

/** −a, exact thanks to the symmetric range. */
export function neg(a: QTensor): QTensor {
  return qtensor(
    a.shape,
    a.exp,
    a.data.map((v) => -v),
  )
}

/** a ⊙ b (b of a's shape, or a single scalar) with one round-half-even; the default never saturates. */
export function mul(a: QTensor, b: QTensor, outExp?: number): QTensor {
  const scalar = b.data.length === 1
  if (!scalar) assertShape(b, a.shape, 'mul operand')
  const e = outExp ?? expForMagnitude(magnitude(a) + magnitude(b))
  const s = e - a.exp - b.exp
  return qtensor(a.shape, e, mulRneEach(a.data, b.data, s, new Int32Array(a.data.length)))
}

/** Re-rounds a tensor to another exponent (one round-half-even, saturating). */
export function requantize(a: QTensor, outExp: number): QTensor {
  const s = outExp - a.exp
  return qtensor(
    a.shape,
    outExp,
    a.data.map((v) => sat32(rne(v, s))),
  )
}
