// Judges every inbound gossip message before gossipsub forwards it: a refusal makes gossipsub drop the
// message and lower the sender's score. Cheap checks run first (topic, size before any parsing). The
// rate limiter is charged only after the age and replay checks, so a peer re-sending someone else's
// signed messages cannot drain that someone's tokens: an accepted message comes back as 'replay', an old
// one as 'stale', and gossipsub's seen cache drops the rest. Pure apart from the `now` it is given.
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { canonicalJson } from './canonical-json.ts'
import { decodeEnvelope, type Envelope } from './envelope.ts'
import { validatePresenceBody, type PresenceBody } from './presence.ts'
import { createRateLimiter, type RateLimit, type RateLimiter } from './rate-limiter.ts'
import { createReplayCache } from '../learning/replay-cache.ts'
import { DEFAULT_LEARNING } from '../learning/learning-config.ts'
import { validateReceiptsBody, type ReceiptsBody } from './receipts-message.ts'
import { validateRolloutsBody, type RolloutsBody } from './rollouts.ts'
import { MAX_MESSAGE_BYTES, parseTopic, type GossipKind } from './topics.ts'

/** Why a message was refused, in the order the checks run; the UI counts refusals by these keys. */
export const REJECT_REASONS = [
  'wrong-topic', // not a topic of our swarm, or not a tabswarm topic at all
  'unknown-kind', // a kind whose body schema does not exist yet: nothing of it is accepted
  'oversized', // above the kind's size cap (checked before parsing)
  'malformed', // not UTF-8 JSON, not an envelope, a number beyond the double range, or the checks threw
  'unknown-version', // an envelope version newer than ours: its sender runs a newer tabswarm
  'wrong-swarm', // the envelope names another swarm than its topic
  'wrong-kind', // the envelope's kind is not its topic's kind
  'sender-mismatch', // the envelope's `from` is not the gossipsub signer
  'stale', // sent longer ago than maxAgeMs
  'future', // sent more than maxSkewMs ahead of our clock
  'replay', // the same sender, kind, timestamp and body was accepted before
  'rate-limited', // the signer sends this kind faster than its rate limit, or its forwarder rollouts
  'invalid-body', // the body fails its kind's schema
] as const
export type RejectReason = (typeof REJECT_REASONS)[number]

/**
 * Refusals that say nothing against the peer that handed us the message, so gossipsub is told to
 * Ignore them (drop, do not forward) rather than Reject (drop and lower the forwarder's score): they
 * are counted by reason all the same. Timing depends on when the message reached us: an honest peer
 * relaying an attacker's 59.5 s old messages delivers them stale, a replay or a flood of someone else's
 * messages is the signer's doing, and a far-ahead timestamp is the signer's clock. A newer protocol
 * version is a peer that updated first; refusing it as invalid would cut the swarm in two at every
 * version bump. Every other reason is something the forwarder's own validator would have refused.
 */
export const IGNORED_REASONS: ReadonlySet<string> = new Set<RejectReason>([
  'stale',
  'future',
  'replay',
  'rate-limited',
  'unknown-version',
])

/**
 * Body type per kind that has a schema. A kind joins when its issue adds a schema; until then its
 * messages are refused as 'unknown-kind', since nothing unchecked may reach the swarm logic.
 */
export interface KnownBodies {
  presence: PresenceBody
  rollouts: RolloutsBody
  receipts: ReceiptsBody
}
export type KnownKind = keyof KnownBodies
export type ValidEnvelope = { [K in KnownKind]: Envelope<KnownBodies[K]> & { kind: K } }[KnownKind]

/**
 * Default rate limits per signer and kind. Presence goes out every 3 s (PRESENCE_INTERVAL_MS); 1/s
 * sustained is 3× that, and a burst of 5 covers a start, a resume and a leave landing together.
 */
export const DEFAULT_RATE_LIMITS: Readonly<Record<KnownKind, RateLimit>> = {
  presence: { perSecond: 1, burst: 5 },
  // A peer shares a round's groups in one message; rounds last tens of seconds. A burst of 4 covers a
  // late round's message landing with the next one's and a re-send after a reconnect.
  rollouts: { perSecond: 0.5, burst: 4 },
  // One receipt per training step, at most one step a round: the same budget as rollouts.
  receipts: { perSecond: 0.5, burst: 4 },
}

/**
 * Rate limit of rollouts per forwarding peer (gossipsub's propagation source), whoever signed them: a
 * fresh key gets a fresh signer bucket, but 1,000 keys behind one connection share this one. A neighbour
 * forwards every swarm peer's one message a round, so 10/s with a burst of 100 carries a 100-peer swarm
 * in a round of 10 s; beyond it the connection's rollouts are refused as 'rate-limited' (Ignore).
 */
export const ROLLOUTS_PER_FORWARDER: RateLimit = { perSecond: 10, burst: 100 }

/**
 * Oldest message accepted. Less than gossipsub's seen-cache TTL (2 minutes, `GossipsubSeenTTL`), so a
 * message replayed after gossipsub has forgotten its id is already stale; and long enough for a message
 * to cross a mesh of slow links (a few hops of heartbeats) with clocks a few seconds apart.
 */
export const DEFAULT_MAX_AGE_MS = 60_000
/** Furthest ahead of our clock a message may claim to be sent: covers ordinary clock skew between machines. */
export const DEFAULT_MAX_SKEW_MS = 10_000
/**
 * Replay-cache bound. At one presence per 3 s a peer holds 20 entries within the 60 s window, so this
 * covers 1000 peers; beyond it the oldest entries are forgotten first (about 2 MB at the bound).
 */
export const MAX_REPLAY_ENTRIES = 20_000
/**
 * Rate-limiter bound per kind: a bucket per signer, enough for 4,000 peers (about 0.6 MB per kind at
 * the bound). One limiter per kind keys its buckets by the signer's id alone, so a bucket holds no
 * string of its own beyond the id.
 */
export const MAX_RATE_BUCKETS_PER_KIND = 4_000

/**
 * The replay cache's key for one message: 128 bits of SHA-256 over sender, kind, timestamp and body,
 * as 32 hex digits. A fixed short key keeps a cache entry near 100 bytes whoever sends (a key spelling
 * out the sender and a full hash cost 5× that, which 10,000 strangers turn into megabytes), and 2^-64
 * collision odds among billions of messages never make a new message look like a replay.
 */
function replayKeyOf(from: string, kind: string, ts: number, canonicalBody: string): string {
  const digest = sha256(new TextEncoder().encode(`${from}\n${kind}\n${ts}\n${canonicalBody}`))
  return bytesToHex(digest.subarray(0, 16))
}

export interface GossipValidatorOptions {
  swarmId: string
  now: () => number
  maxAgeMs?: number
  maxSkewMs?: number
  /** overrides of DEFAULT_RATE_LIMITS, per kind */
  rate?: Partial<Record<KnownKind, RateLimit>>
  /** when given, a presence whose name is not `nameOf(sender)` is refused as 'invalid-body' */
  nameOf?: (peerId: string) => string
  /** the swarm's G: a rollout group of any other size is refused (default DEFAULT_LEARNING.groupSize) */
  groupSize?: number
}

export type ValidationResult =
  { ok: true; envelope: ValidEnvelope } | { ok: false; reason: RejectReason; detail?: string }

export interface GossipValidator {
  /**
   * judges one message; `signer` is the peer id gossipsub verified the signature of, `source` the peer
   * that handed it to us (gossipsub's propagation source)
   */
  validate(topic: string, data: Uint8Array, signer: string, source?: string): ValidationResult
  /** entries held by the replay cache and the rate limiters, all kinds together (all bounded) */
  cacheSizes(): { replay: number; rateBuckets: number }
}

export function createGossipValidator(opts: GossipValidatorOptions): GossipValidator {
  const { swarmId, now, maxAgeMs = DEFAULT_MAX_AGE_MS, maxSkewMs = DEFAULT_MAX_SKEW_MS, nameOf } = opts
  const groupSize = opts.groupSize ?? DEFAULT_LEARNING.groupSize
  const rates: Record<KnownKind, RateLimit> = { ...DEFAULT_RATE_LIMITS, ...opts.rate }
  const replays = createReplayCache(MAX_REPLAY_ENTRIES)
  const limiters: Record<KnownKind, RateLimiter> = {
    presence: createRateLimiter(MAX_RATE_BUCKETS_PER_KIND),
    rollouts: createRateLimiter(MAX_RATE_BUCKETS_PER_KIND),
    receipts: createRateLimiter(MAX_RATE_BUCKETS_PER_KIND),
  }
  const rolloutForwarders = createRateLimiter(MAX_RATE_BUCKETS_PER_KIND)

  const bodyChecks: { [K in KnownKind]: (body: unknown, from: string) => KnownBodies[K] | string } = {
    presence(body, from) {
      const presence = validatePresenceBody(body)
      if (typeof presence === 'string' || nameOf === undefined) return presence
      const expected = nameOf(from)
      return presence.name === expected
        ? presence
        : `name ${JSON.stringify(presence.name)} is not ${expected}`
    },
    rollouts: (body) => validateRolloutsBody(body, groupSize),
    receipts: (body, from) => validateReceiptsBody(body, from),
  }
  const isKnownKind = (kind: GossipKind): kind is KnownKind => Object.hasOwn(bodyChecks, kind)

  const reject = (reason: RejectReason, detail?: string): ValidationResult =>
    detail === undefined ? { ok: false, reason } : { ok: false, reason, detail }

  const judge = (topic: string, data: Uint8Array, signer: string, source?: string): ValidationResult => {
    const parsed = parseTopic(topic)
    if (parsed === null || parsed.swarmId !== swarmId) return reject('wrong-topic')
    const kind = parsed.kind
    if (!isKnownKind(kind)) return reject('unknown-kind')
    if (data.byteLength > MAX_MESSAGE_BYTES[kind]) return reject('oversized')
    const decoded = decodeEnvelope(data)
    if (!decoded.ok) return reject(decoded.reason, decoded.detail)
    const envelope = decoded.envelope
    if (envelope.swarmId !== swarmId) return reject('wrong-swarm')
    if (envelope.kind !== kind) return reject('wrong-kind')
    if (envelope.from !== signer) return reject('sender-mismatch')
    const t = now()
    if (envelope.ts < t - maxAgeMs) return reject('stale')
    if (envelope.ts > t + maxSkewMs) return reject('future')
    // The body is bounded in size and depth and holds only finite numbers by now, so hashing its
    // canonical JSON is cheap and cannot throw.
    const replayKey = replayKeyOf(envelope.from, kind, envelope.ts, canonicalJson(envelope.body))
    if (replays.has(replayKey, t)) return reject('replay')
    if (!limiters[kind].take(signer, rates[kind], t)) return reject('rate-limited')
    const throttled =
      kind === 'rollouts' &&
      source !== undefined &&
      !rolloutForwarders.take(source, ROLLOUTS_PER_FORWARDER, t)
    if (throttled) return reject('rate-limited', `${source} forwards rollouts faster than its limit`)
    const body = bodyChecks[kind](envelope.body, envelope.from)
    if (typeof body === 'string') return reject('invalid-body', body)
    // Remembered until the message turns stale; after that the age check refuses a replay.
    replays.add(replayKey, envelope.ts + maxAgeMs, t)
    // bodyChecks[kind] returned this kind's body type, which TS cannot correlate through the union
    return { ok: true, envelope: { ...envelope, kind, body } as ValidEnvelope }
  }

  return {
    // gossipsub turns a validator that throws into Ignore: the message would go uncounted and its
    // sender unpunished, so whatever throws is a refusal with a reason instead.
    validate(topic, data, signer, source) {
      try {
        return judge(topic, data, signer, source)
      } catch (error) {
        return reject(
          'malformed',
          `validation failed: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
    },
    cacheSizes: () => ({
      replay: replays.size,
      rateBuckets: Object.values(limiters).reduce((n, limiter) => n + limiter.size, rolloutForwarders.size),
    }),
  }
}
