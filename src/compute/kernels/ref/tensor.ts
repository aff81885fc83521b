import { sat32 } from './rounding.ts'
import { maxAbsWasm } from './wasm/kernels.ts'

/**
 * A reproducible tensor: i32 values sharing one power-of-two exponent (real value = data[i]·2^exp).
 * Row-major. Elements stay in the symmetric range ±(2^31−1). A matmul takes at most one such wide
 * operand (split into int16 limbs); the other holds int16 mantissas (|v| ≤ 2^15−1) from `narrow16`.
 */
export interface QTensor {
  readonly shape: readonly number[]
  readonly exp: number
  readonly data: Int32Array
}

/**
 * int16 mantissas with one exponent per row (value = data[i, j]·2^rowExps[i]). Row-local scaling
 * keeps every row's result independent of the other rows: a token's activations never depend on
 * later tokens or on the rest of the batch, so a KV-cached generation and a full forward agree.
 */
export interface RowScaled {
  readonly shape: readonly [number, number]
  readonly rowExps: Int32Array
  readonly data: Int32Array
}

export function isRowScaled(t: QTensor | RowScaled): t is RowScaled {
  return 'rowExps' in t
}

export function numel(shape: readonly number[]): number {
  return shape.reduce((n, d) => n * d, 1)
}

export function qtensor(shape: readonly number[], exp: number, data?: Int32Array): QTensor {
  const n = numel(shape)
  const values = data ?? new Int32Array(n)
  if (values.length !== n)
    throw new RangeError(`tensor [${shape.join(', ')}] needs ${n} values, got ${values.length}`)
  return { shape: [...shape], exp, data: values }
}

/** Round-half-even of a float to the nearest integer (Math.round rounds halves up). */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x)
  const d = x - f
  return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f
}

/** Encodes floats at a given exponent, once rounded half-even and saturated: how data enters the set. */
export function fromFloat(shape: readonly number[], exp: number, values: ArrayLike<number>): QTensor {
  const out = qtensor(shape, exp)
  const scale = 2 ** -exp
  for (let i = 0; i < out.data.length; i++) out.data[i] = sat32(roundHalfEven((values[i] ?? 0) * scale))
  return out
}

export function toFloat(t: QTensor): Float64Array {
  const scale = 2 ** t.exp
  // a plain loop: Float64Array.from with a map function goes through the iterator, ~15× slower
  const out = new Float64Array(t.data.length)
  for (let i = 0; i < out.length; i++) out[i] = t.data[i]! * scale
  return out
}

/** Below this many elements the plain loop beats copying into wasm memory. */
const WASM_MAX_ABS_FROM = 256

export function maxAbs(data: Int32Array): number {
  const fast = data.length >= WASM_MAX_ABS_FROM ? maxAbsWasm(data) : undefined
  if (fast !== undefined) return fast
  let m = 0
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!
    const a = v < 0 ? -v : v
    if (a > m) m = a
  }
  return m
}

export function assertShape(t: QTensor, shape: readonly number[], what: string): void {
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i]))
    throw new RangeError(`${what} has shape [${t.shape.join(', ')}], expected [${shape.join(', ')}]`)
}
