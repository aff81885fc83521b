// The envelope every gossip message travels in: who sent it, for which swarm, round and kind, when, and
// the kind's body. Encoded as canonical JSON in UTF-8 so equal envelopes are equal bytes.
import { canonicalJson } from './canonical-json.ts'
import * as z from 'zod'
import { checked, intIn, stringOf } from './schema.ts'
import { GOSSIP_KINDS, type GossipKind } from './topics.ts'

/**
 * Bumped when the envelope's fields change meaning; peers ignore (do not refuse as invalid) newer
 * versions, and the Swarm view tells the user to update.
 */
export const PROTOCOL_VERSION = 1

export interface Envelope<B = unknown> {
  v: typeof PROTOCOL_VERSION
  swarmId: string
  /** the round at `ts` by the swarm's clock; −1 before genesis */
  round: number
  /** the sender's peer id; receivers require it to equal the gossipsub signer */
  from: string
  /** ms since the Unix epoch when sent, by the sender's clock */
  ts: number
  kind: GossipKind
  body: B
}

export type DecodeResult =
  { ok: true; envelope: Envelope } | { ok: false; reason: 'malformed' | 'unknown-version'; detail: string }

/**
 * Longest peer or swarm id accepted. Ed25519 peer ids are 52 characters, RSA (CIDv0) ones 46 and swarm
 * ids 64 hex digits; 128 leaves room for other key types without letting an id carry a payload.
 */
export const MAX_ID_LENGTH = 128

/**
 * Deepest nesting accepted in a body. Real bodies are a few levels deep; the bound keeps the recursive
 * walks over a body (canonical JSON for hashing, schema checks) far from the stack limit.
 */
export const MAX_BODY_DEPTH = 32

/** Encodes an envelope. Throws a TypeError if the body holds a value JSON cannot carry (NaN, undefined in arrays…). */
export function encodeEnvelope<B>(envelope: Envelope<B>): Uint8Array {
  return new TextEncoder().encode(canonicalJson(envelope))
}

// `fatal` makes invalid UTF-8 an error instead of silently decoding it to U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true })

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const id = (error: string) => stringOf(1, MAX_ID_LENGTH, error)

/**
 * An envelope of this version. Its body is any JSON of at most MAX_BODY_DEPTH levels with finite
 * numbers (a rule of the runtime: JSON Schema cannot bound a depth), checked further by its kind's
 * schema (docs/schema/<kind>-body.json).
 */
export const ENVELOPE_SCHEMA = z.strictObject(
  {
    v: z.literal(PROTOCOL_VERSION, { error: 'no version' }),
    swarmId: id('bad swarmId'),
    round: intIn(-1, Number.MAX_SAFE_INTEGER, 'bad round'),
    from: id('bad from'),
    ts: intIn(0, Number.MAX_SAFE_INTEGER, 'bad ts'),
    kind: z.enum(GOSSIP_KINDS, { error: 'bad kind' }),
    body: z
      .unknown()
      .check(
        z.describe(
          `the kind's body; at runtime also: present, at most ${MAX_BODY_DEPTH} levels deep, every number finite (1e999 is refused)`,
        ),
      ),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field ${JSON.stringify(issue.keys[0])}`
        : 'not a JSON object',
  },
)

/**
 * What makes a body unfit to be judged further, or null: nesting deeper than `limit`, or a number
 * beyond the double range (JSON.parse turns `1e999` into Infinity, which canonical JSON cannot carry,
 * so such a body could be neither hashed nor re-encoded).
 */
function bodyDefect(value: unknown, limit: number): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'a number beyond the double range'
  if (typeof value !== 'object' || value === null) return null
  if (limit === 0) return `body nested deeper than ${MAX_BODY_DEPTH}`
  const children = Array.isArray(value) ? value : Object.values(value)
  for (const child of children) {
    const defect = bodyDefect(child, limit - 1)
    if (defect !== null) return defect
  }
  return null
}

/** Decodes untrusted bytes into an envelope, checking every field; never throws. The body is left unchecked. */
export function decodeEnvelope(bytes: Uint8Array): DecodeResult {
  const malformed = (detail: string): DecodeResult => ({ ok: false, reason: 'malformed', detail })
  let value: unknown
  try {
    value = JSON.parse(utf8.decode(bytes))
  } catch {
    return malformed('not UTF-8 JSON')
  }
  if (!isObject(value)) return malformed('not a JSON object')
  // The version comes first: a newer version may change every other field.
  // Versions count up from PROTOCOL_VERSION, the first: anything else than it or a later one is no
  // version at all. A later one is a peer that updated before us (its messages are ignored, not held
  // against it).
  const { v } = value
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < PROTOCOL_VERSION)
    return malformed('no version')
  if (v > PROTOCOL_VERSION)
    return {
      ok: false,
      reason: 'unknown-version',
      detail: `version ${v}, newer than ours (${PROTOCOL_VERSION})`,
    }
  if (!('body' in value)) return malformed('no body')
  const envelope = checked(ENVELOPE_SCHEMA, value)
  if (typeof envelope === 'string') return malformed(envelope)
  const defect = bodyDefect(envelope.body, MAX_BODY_DEPTH)
  if (defect !== null) return malformed(defect)
  return { ok: true, envelope: envelope as Envelope }
}
