import { qtensor, type QTensor } from '../kernels/ref/tensor.ts'
import { sha256Hex } from '../../core/protocol/digest.ts'

/**
 * Canonical bytes of a tensor, the same on every backend (a WGSL trace must hash the same bytes):
 *   u8 tag 0 (one exponent per tensor) · u8 rank · u32le per dimension · i32le exponent · i32le data
 * The shape and exponent are part of the bytes because the same integers at another exponent or
 * shape are another value.
 */
export function tensorBytes(t: QTensor): Uint8Array {
  const head = 2 + 4 * t.shape.length + 4
  const out = new Uint8Array(head + 4 * t.data.length)
  const view = new DataView(out.buffer)
  out[0] = 0
  out[1] = t.shape.length
  t.shape.forEach((d, i) => view.setUint32(2 + 4 * i, d, true))
  view.setInt32(head - 4, t.exp, true)
  if (LITTLE_ENDIAN) out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), head)
  else t.data.forEach((v, i) => view.setInt32(head + 4 * i, v, true))
  return out
}

const LITTLE_ENDIAN = new Uint8Array(Int32Array.of(1).buffer)[0] === 1

/** The hash of one op's output in a trace. */
export function tensorHash(t: QTensor): string {
  return sha256Hex(tensorBytes(t))
}

/** Reads one tensor written by `tensorBytes` at `offset`; returns it and the offset after it. */
export function readTensor(bytes: Uint8Array, offset: number): { tensor: QTensor; next: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes[offset] !== 0) throw new RangeError(`tensor at byte ${offset}: unknown tag ${bytes[offset]}`)
  const rank = bytes[offset + 1]!
  const shape = Array.from({ length: rank }, (_, i) => view.getUint32(offset + 2 + 4 * i, true))
  const head = offset + 2 + 4 * rank
  const t = qtensor(shape, view.getInt32(head, true))
  if (head + 4 + 4 * t.data.length > bytes.length)
    throw new RangeError(`tensor at byte ${offset} is truncated`)
  for (let i = 0; i < t.data.length; i++) t.data[i] = view.getInt32(head + 4 + 4 * i, true)
  return { tensor: t, next: head + 4 + 4 * t.data.length }
}
