// Between gossipsub and the swarm's gossip validator: turns the validator's verdict on one message into
// gossipsub's (accept, ignore or reject), counts every refusal by reason, and hangs up on a peer that
// keeps handing us messages it should have refused itself. Pure apart from the callbacks it is given.
import type { Envelope } from '../../core/protocol/envelope.ts'
import { IGNORED_REASONS } from '../../core/protocol/gossip-validator.ts'
import { createRateLimiter, type RateLimit } from '../../core/protocol/rate-limiter.ts'
import { createRecentMap } from '../../core/protocol/recent-map.ts'
import {
  BLOCK_AFTER_REJECTS,
  BLOCK_MS,
  MAX_BLOCKED_PEERS,
  MAX_REFUSAL_RECORDS,
  REJECTS_FORGIVEN_PER_SECOND,
} from './constants.ts'
import type { NetStatsCollector } from './net-stats.ts'

export type GossipCheck = (
  topic: string,
  data: Uint8Array,
  signer: string,
  source: string,
) => { ok: true; envelope: Envelope } | { ok: false; reason: string }

/** gossipsub's TopicValidatorResult, by value */
export type GateVerdict = 'accept' | 'ignore' | 'reject'

export interface GossipGateParameters {
  /** the swarm's gossip validator (src/core/protocol/gossip-validator.ts) */
  check: GossipCheck
  stats: NetStatsCollector
  /** a message passed validation */
  onEnvelope?: (envelope: Envelope, from: string) => void
  /** closes every connection to `peer`; the gate refuses it for BLOCK_MS from then on */
  hangUp: (peer: string) => void
  now?: () => number
}

export interface GossipGate {
  /**
   * Judges one message on `topic` that `source` handed us; `signer` is the peer id gossipsub verified
   * the signature of, null for an unsigned message.
   */
  judge(topic: string, data: Uint8Array, signer: string | null, source: string): GateVerdict
  /** whether `peer` was hung up on and is still refused */
  isBlocked(peer: string): boolean
}

export function createGossipGate(p: GossipGateParameters): GossipGate {
  const now = p.now ?? Date.now
  // until when each hung-up peer is refused; bounded, since every fresh key can earn a place here
  const blocked = createRecentMap<number>(MAX_BLOCKED_PEERS)
  const isBlocked = (id: string): boolean => (blocked.get(id) ?? 0) > now()
  // A leaky bucket per forwarder: each charged refusal spends a token and tokens come back at
  // REJECTS_FORGIVEN_PER_SECOND. Its burst is one less than BLOCK_AFTER_REJECTS, so the refusal that
  // finds it empty is the BLOCK_AFTER_REJECTS-th in quick succession.
  const allowance: RateLimit = { perSecond: REJECTS_FORGIVEN_PER_SECOND, burst: BLOCK_AFTER_REJECTS - 1 }
  const refusals = createRateLimiter(MAX_REFUSAL_RECORDS)

  const refuse = (source: string, reason: string, bytes: number): GateVerdict => {
    if (IGNORED_REASONS.has(reason)) {
      p.stats.ignored(source, reason, bytes)
      return 'ignore'
    }
    p.stats.rejected(source, reason, bytes)
    if (!refusals.take(source, allowance, now()) && !isBlocked(source)) {
      blocked.set(source, now() + BLOCK_MS)
      p.stats.blocked(source)
      p.hangUp(source)
    }
    return 'reject'
  }

  return {
    judge(topic, data, signer, source) {
      if (signer === null) return refuse(source, 'unsigned', data.byteLength)
      const r = p.check(topic, data, signer, source)
      if (!r.ok) return refuse(source, r.reason, data.byteLength)
      // The validator remembers what it accepted (replays are refused), so the envelope is handed on
      // from here rather than checked again when the message is delivered.
      const { onEnvelope } = p
      if (onEnvelope) queueMicrotask(() => onEnvelope(r.envelope, signer))
      return 'accept'
    },
    isBlocked,
  }
}
