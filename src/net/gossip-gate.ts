// Between gossipsub and the swarm's gossip validator: turns the validator's verdict on one message into
// gossipsub's (accept or refuse), counts every refusal by reason, and hangs up on a peer that forwards
// too many refused messages. Pure apart from the callbacks it is given.
import type { Envelope } from '../swarm/envelope.ts'
import { BLOCK_AFTER_REJECTS, BLOCK_MS } from './constants.ts'
import type { NetStatsCollector } from './net-stats.ts'

export type GossipCheck = (
  topic: string,
  data: Uint8Array,
  signer: string,
) => { ok: true; envelope: Envelope } | { ok: false; reason: string }

/** gossipsub's TopicValidatorResult, by value */
export type GateVerdict = 'accept' | 'reject'

export interface GossipGateParameters {
  /** the swarm's gossip validator (src/swarm/gossip-validator.ts) */
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
  const blocked = new Map<string, number>()
  const isBlocked = (id: string): boolean => (blocked.get(id) ?? 0) > now()

  const reject = (source: string, reason: string, bytes: number): GateVerdict => {
    p.stats.rejected(source, reason, bytes)
    if (p.stats.rejectsFrom(source) >= BLOCK_AFTER_REJECTS && !isBlocked(source)) {
      blocked.set(source, now() + BLOCK_MS)
      p.stats.blocked(source)
      p.hangUp(source)
    }
    return 'reject'
  }

  return {
    judge(topic, data, signer, source) {
      if (signer === null) return reject(source, 'unsigned', data.byteLength)
      const r = p.check(topic, data, signer)
      if (!r.ok) return reject(source, r.reason, data.byteLength)
      // The validator remembers what it accepted (replays are refused), so the envelope is handed on
      // from here rather than checked again when the message is delivered.
      const { onEnvelope } = p
      if (onEnvelope) queueMicrotask(() => onEnvelope(r.envelope, signer))
      return 'accept'
    },
    isBlocked,
  }
}
