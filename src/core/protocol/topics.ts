// Gossipsub topic names and per-kind message size caps. One topic per kind and swarm:
// `/tabswarm/<swarmId>/<kind>/1`, the trailing 1 being the topic format version.

export const GOSSIP_KINDS = ['presence', 'rollouts', 'proposals', 'receipts', 'markets'] as const
export type GossipKind = (typeof GOSSIP_KINDS)[number]

const KiB = 1024

/**
 * Largest message (the whole encoded envelope, in bytes) accepted per kind. Checked before parsing so
 * a peer cannot make us parse megabytes. All are far below gossipsub's own limit: `@libp2p/gossipsub`
 * leaves `maxInboundDataLength` unset, so an inbound RPC frame is capped by it-length-prefixed's
 * default `MAX_DATA_LENGTH` of 4 MiB — and one frame may carry several messages plus control data.
 */
export const MAX_MESSAGE_BYTES: Readonly<Record<GossipKind, number>> = {
  // A name, an app version and a GPU description: ~0.5 KiB at the schema's string limits. 2 KiB leaves
  // room for the envelope and non-ASCII GPU strings, and keeps a presence flood cheap.
  presence: 2 * KiB,
  // G completions of a task plus their rewards, the largest thing peers exchange: 8 completions of
  // ~2 k tokens (~4 bytes each) is ~64 KiB; 256 KiB leaves 4× for larger G or longer reasoning while a
  // message still crosses a 1 Mbit/s WebRTC link in about 2 s.
  rollouts: 256 * KiB,
  // A task proposal: a prompt and its metadata, no completions.
  proposals: 16 * KiB,
  // A receipt: hashes of the step chain, the config and a signature, plus the op trace summary that
  // lets a verifier find the first divergent step without asking the sender.
  receipts: 64 * KiB,
  // A market announcement or resolution: ids, a question, outcomes and prices.
  markets: 16 * KiB,
}

const TOPIC_PREFIX = '/tabswarm/'
const TOPIC_VERSION = '1'

export const isGossipKind = (value: unknown): value is GossipKind =>
  typeof value === 'string' && (GOSSIP_KINDS as readonly string[]).includes(value)

/** The topic for `kind` in swarm `swarmId`. Throws a RangeError for a swarm id that cannot be a path segment. */
export function topicFor(swarmId: string, kind: GossipKind): string {
  if (swarmId.length === 0 || swarmId.includes('/'))
    throw new RangeError(`invalid swarm id ${JSON.stringify(swarmId)}`)
  return `${TOPIC_PREFIX}${swarmId}/${kind}/${TOPIC_VERSION}`
}

/** The swarm id and kind of a tabswarm topic, or null for any other string. */
export function parseTopic(topic: string): { swarmId: string; kind: GossipKind } | null {
  if (!topic.startsWith(TOPIC_PREFIX)) return null
  const parts = topic.slice(TOPIC_PREFIX.length).split('/')
  if (parts.length !== 3) return null
  const [swarmId, kind, version] = parts as [string, string, string]
  if (swarmId.length === 0 || !isGossipKind(kind) || version !== TOPIC_VERSION) return null
  return { swarmId, kind }
}
