import { describe, expect, it } from 'vitest'
import {
  MAX_BODY_DEPTH,
  MAX_ID_LENGTH,
  PROTOCOL_VERSION,
  decodeEnvelope,
  encodeEnvelope,
  type Envelope,
} from './envelope.ts'

const envelope: Envelope<{ a: number; b: string[] }> = {
  v: PROTOCOL_VERSION,
  swarmId: 'ab'.repeat(32),
  round: 7,
  from: '12D3KooWAlice',
  ts: 1_800_000_000_000,
  kind: 'presence',
  body: { a: 1, b: ['x'] },
}
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)
const json = (value: unknown): Uint8Array => utf8(JSON.stringify(value))

describe('encodeEnvelope / decodeEnvelope', () => {
  it('round-trips an envelope', () => {
    expect(decodeEnvelope(encodeEnvelope(envelope))).toEqual({ ok: true, envelope })
  })

  it('encodes canonical JSON, so key order does not change the bytes', () => {
    const reordered = { ...Object.fromEntries(Object.entries(envelope).reverse()), body: { b: ['x'], a: 1 } }
    expect(Object.keys(reordered)[0]).toBe('body')
    expect(encodeEnvelope(reordered as typeof envelope)).toEqual(encodeEnvelope(envelope))
    expect(new TextDecoder().decode(encodeEnvelope(envelope))).toMatch(
      /^\{"body":\{"a":1,"b":\["x"\]\},"from":/,
    )
  })

  it('refuses to encode a body JSON cannot carry', () => {
    expect(() => encodeEnvelope({ ...envelope, body: Number.NaN })).toThrow(TypeError)
  })

  it('accepts round −1 (before genesis) and any JSON body, including null', () => {
    expect(decodeEnvelope(json({ ...envelope, round: -1, body: null })).ok).toBe(true)
  })

  it('tells an unknown version from a malformed envelope', () => {
    expect(decodeEnvelope(json({ ...envelope, v: 2, extra: 'new field' }))).toMatchObject({
      ok: false,
      reason: 'unknown-version',
    })
    expect(decodeEnvelope(json({ ...envelope, v: '1' }))).toMatchObject({ ok: false, reason: 'malformed' })
    const noVersion: Partial<typeof envelope> = { ...envelope }
    delete noVersion.v
    expect(decodeEnvelope(json(noVersion))).toMatchObject({ ok: false, reason: 'malformed' })
  })

  it.each([
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d])],
    ['not JSON', utf8('{"v":1,')],
    ['empty input', new Uint8Array()],
    ['a JSON array', json([envelope])],
    ['a JSON string', json('hello')],
    ['an unknown field', json({ ...envelope, extra: 1 })],
    ['a __proto__ field', utf8(JSON.stringify(envelope).replace('{', '{"__proto__":{"x":1},'))],
    ['no body', json({ ...envelope, body: undefined })],
    ['an empty swarm id', json({ ...envelope, swarmId: '' })],
    ['a too long sender', json({ ...envelope, from: 'x'.repeat(MAX_ID_LENGTH + 1) })],
    ['a numeric sender', json({ ...envelope, from: 5 })],
    ['a fractional round', json({ ...envelope, round: 1.5 })],
    ['a round below −1', json({ ...envelope, round: -2 })],
    ['a string timestamp', json({ ...envelope, ts: '1800000000000' })],
    ['a negative timestamp', json({ ...envelope, ts: -1 })],
    ['an unsafe timestamp', utf8(JSON.stringify(envelope).replace('"ts":1800000000000', '"ts":1e300'))],
    ['an unknown kind', json({ ...envelope, kind: 'chat' })],
    ['a version below the first (no version at all)', json({ ...envelope, v: 0 })],
    ['a fractional version', json({ ...envelope, v: 1.5 })],
    // JSON.parse turns a number beyond the double range into ±Infinity, which no canonical JSON can carry.
    [
      'a body number that overflows to Infinity',
      utf8(JSON.stringify(envelope).replace('"a":1', '"a":1e999')),
    ],
    [
      'a nested body number that overflows to −Infinity',
      utf8(JSON.stringify(envelope).replace('["x"]', '["x",[-1e999]]')),
    ],
  ])('calls %s malformed', (_, bytes) => {
    expect(decodeEnvelope(bytes)).toMatchObject({ ok: false, reason: 'malformed' })
  })

  it('bounds the nesting of bodies', () => {
    const nest = (depth: number): unknown => (depth === 0 ? 0 : [nest(depth - 1)])
    expect(decodeEnvelope(json({ ...envelope, body: nest(MAX_BODY_DEPTH) })).ok).toBe(true)
    expect(decodeEnvelope(json({ ...envelope, body: nest(MAX_BODY_DEPTH + 1) }))).toMatchObject({
      ok: false,
      reason: 'malformed',
    })
  })

  it('never throws, even on very deep nesting or random bytes', () => {
    const deepBody = `${'['.repeat(200_000)}${']'.repeat(200_000)}`
    const deep = utf8(JSON.stringify({ ...envelope, body: 0 }).replace('"body":0', `"body":${deepBody}`))
    expect(decodeEnvelope(deep)).toMatchObject({ ok: false })
    let seed = 1
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256
    for (let i = 0; i < 2000; i++) {
      const bytes = Uint8Array.from({ length: 1 + (i % 300) }, random)
      expect(decodeEnvelope(bytes).ok).toBe(false)
    }
  })
})
