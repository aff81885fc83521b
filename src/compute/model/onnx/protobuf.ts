// The few parts of the protobuf wire format (protobuf.dev/programming-guides/encoding) that an ONNX
// file needs: varints, length-delimited bytes/strings/sub-messages and packed varints.
// Writing only, no schema: the ONNX builders name the field numbers.

/** Wire types: the low 3 bits of every field key. */
const WIRE_VARINT = 0
const WIRE_LEN = 2

const UTF8 = new TextEncoder()

/** Appends protobuf fields to a growing list of chunks; `finish()` joins them once. */
export class ProtoWriter {
  private readonly chunks: Uint8Array[] = []
  private length = 0

  /** A varint field: int32/int64/enum/bool. Negative values take 10 bytes (two's complement), as protobuf does. */
  varint(field: number, value: number | bigint): this {
    this.key(field, WIRE_VARINT)
    this.push(encodeVarint(value))
    return this
  }

  /** A length-delimited field: `bytes`, or an already encoded sub-message. */
  bytes(field: number, value: Uint8Array): this {
    this.key(field, WIRE_LEN)
    this.push(encodeVarint(value.length))
    this.push(value)
    return this
  }

  string(field: number, value: string): this {
    return this.bytes(field, UTF8.encode(value))
  }

  message(field: number, value: ProtoWriter): this {
    return this.bytes(field, value.finish())
  }

  /**
   * A packed repeated varint field (proto3's default for repeated scalars; proto2 parsers such as
   * onnxruntime's accept it too). An empty list writes nothing, as protobuf itself does.
   */
  packedVarints(field: number, values: readonly (number | bigint)[]): this {
    if (values.length === 0) return this
    const inner = new ProtoWriter()
    for (const v of values) inner.push(encodeVarint(v))
    return this.bytes(field, inner.finish())
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length)
    let at = 0
    for (const chunk of this.chunks) {
      out.set(chunk, at)
      at += chunk.length
    }
    return out
  }

  private key(field: number, wireType: number): void {
    if (!Number.isInteger(field) || field < 1 || field >= 2 ** 29)
      throw new RangeError(`protobuf: field number ${field} is not in [1, 2^29)`)
    this.push(encodeVarint(field * 8 + wireType))
  }

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes)
    this.length += bytes.length
  }
}

/** Base-128 little-endian varint of an int64 (negative numbers as their unsigned 64-bit pattern). */
export function encodeVarint(value: number | bigint): Uint8Array {
  if (typeof value === 'number' && !Number.isSafeInteger(value))
    throw new RangeError(`protobuf: varint ${value} is not a safe integer`)
  let v = BigInt.asUintN(64, BigInt(value))
  if (BigInt(value) !== BigInt.asIntN(64, v))
    throw new RangeError(`protobuf: varint ${value} is not an int64`)
  const out: number[] = []
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80)
    v >>= 7n
  }
  out.push(Number(v))
  return Uint8Array.from(out)
}

/** Little-endian bytes of a typed array, whatever the host's byte order (ONNX `raw_data`). */
export function littleEndianBytes(values: Float32Array | BigInt64Array): Uint8Array {
  const out = new Uint8Array(values.byteLength)
  const view = new DataView(out.buffer)
  if (values instanceof Float32Array) values.forEach((v, i) => view.setFloat32(i * 4, v, true))
  else values.forEach((v, i) => view.setBigInt64(i * 8, v, true))
  return out
}
