import { I32_MAX } from './rounding.ts'
import { qtensor, type QTensor } from './tensor.ts'

/**
 * Test oracles for the "exact up to one rounding" contract: bigint arithmetic that shares no code
 * with the kernels, and random integer tensors to feed them.
 */

/** A tensor of uniform integers in ±(2^bits − 1). */
export function randomIntTensor(rand: () => number, shape: number[], exp: number, bits: number): QTensor {
  const t = qtensor(shape, exp)
  const top = 2 ** bits - 1
  for (let i = 0; i < t.data.length; i++) t.data[i] = -top + Math.floor(rand() * (2 * top + 1))
  return t
}

/** The exact rational n·2^e rounded half-even to outExp and saturated to i32, by bigint. */
export function roundOnce(n: bigint, e: number, outExp: number): number {
  const s = outExp - e
  let q = n << BigInt(Math.max(0, -s))
  if (s > 0) {
    const unit = 1n << BigInt(s)
    q = n >= 0n ? n / unit : -((-n + unit - 1n) / unit) // floor
    const r = n - q * unit
    if (2n * r > unit || (2n * r === unit && q % 2n !== 0n)) q += 1n
  }
  return Number(q > BigInt(I32_MAX) ? BigInt(I32_MAX) : q < -BigInt(I32_MAX) ? -BigInt(I32_MAX) : q)
}

/**
 * op on fresh copies of its inputs with a switchable set of kernels on, then off: the two results.
 * The ops remember results per data array, so each path gets arrays of its own.
 */
export function bothPaths<T>(
  kernels: { off: boolean },
  inputs: QTensor[],
  op: (...t: QTensor[]) => T,
): [T, T] {
  const copy = (t: QTensor): QTensor => ({ ...t, data: t.data.slice() })
  kernels.off = false
  const on = op(...inputs.map(copy))
  kernels.off = true
  try {
    return [on, op(...inputs.map(copy))]
  } finally {
    kernels.off = false
  }
}
