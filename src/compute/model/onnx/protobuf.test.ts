import { describe, expect, it } from 'vitest'
import { encodeVarint, littleEndianBytes, ProtoWriter } from './protobuf.ts'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

describe('protobuf writer', () => {
  it('encodes varints as base-128 little-endian groups', () => {
    expect(hex(encodeVarint(0))).toBe('00')
    expect(hex(encodeVarint(1))).toBe('01')
    expect(hex(encodeVarint(127))).toBe('7f')
    expect(hex(encodeVarint(128))).toBe('8001')
    expect(hex(encodeVarint(300))).toBe('ac02')
    expect(hex(encodeVarint(2 ** 53 - 1))).toBe('ffffffffffffff0f')
    expect(hex(encodeVarint(2n ** 63n - 1n))).toBe('ffffffffffffffff7f')
  })

  it('encodes negative int64 in ten bytes (two’s complement)', () => {
    expect(hex(encodeVarint(-1))).toBe('ffffffffffffffffff01')
    expect(hex(encodeVarint(-2n))).toBe('feffffffffffffffff01')
  })

  it('rejects values that are not int64', () => {
    expect(() => encodeVarint(1.5)).toThrow(/1.5 is not a safe integer/)
    expect(() => encodeVarint(2n ** 63n)).toThrow(/is not an int64/)
  })

  it('writes the examples of the protobuf encoding guide', () => {
    // message Test1 { int32 a = 1 } with a = 150
    expect(hex(new ProtoWriter().varint(1, 150).finish())).toBe('089601')
    // message Test2 { string b = 2 } with b = "testing"
    expect(hex(new ProtoWriter().string(2, 'testing').finish())).toBe('120774657374696e67')
    // message Test3 { Test1 c = 3 } with c.a = 150
    expect(hex(new ProtoWriter().message(3, new ProtoWriter().varint(1, 150)).finish())).toBe('1a03089601')
    // message Test5 { repeated int32 f = 6 [packed = true] } with f = [3, 270, 86942]
    expect(hex(new ProtoWriter().packedVarints(6, [3, 270, 86942]).finish())).toBe('3206038e029ea705')
  })

  it('writes nothing for an empty packed list and joins fields in call order', () => {
    const w = new ProtoWriter().packedVarints(1, []).varint(2, 1).bytes(3, Uint8Array.of(0xff))
    expect(hex(w.finish())).toBe('10011a01ff')
  })

  it('rejects field numbers outside [1, 2^29)', () => {
    expect(() => new ProtoWriter().varint(0, 1)).toThrow(/field number 0/)
    expect(() => new ProtoWriter().string(2 ** 29, '')).toThrow(/field number 536870912/)
  })

  it('writes typed arrays little-endian', () => {
    expect(hex(littleEndianBytes(Float32Array.of(1, -2)))).toBe('0000803f000000c0')
    expect(hex(littleEndianBytes(BigInt64Array.of(1n, -1n)))).toBe('0100000000000000ffffffffffffffff')
  })
})
