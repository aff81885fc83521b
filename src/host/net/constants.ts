// Timings of the browser node. Each value says why it is what it is.

/** How often the dialer walks the peer store: `peer:discovery` fires once and failed dials are not
 * retried by libp2p, so a periodic sweep is what makes the mesh converge. */
export const DIAL_SWEEP_MS = 1_000

/** Backoff for a peer whose dial failed: first retry soon (the other side may still be reserving its
 * relay slot), then slower so a dead peer costs little. */
export const DIAL_BACKOFF_MIN_MS = 1_000
export const DIAL_BACKOFF_MAX_MS = 15_000

/** Peers whose dial backoff is remembered at once; beyond it the least recently failed are forgotten,
 * which at worst costs a forgotten dead peer one early retry. 1,000 × ~150 B ≈ 0.15 MB. */
export const MAX_BACKOFF_PEERS = 1_000

/** A WebRTC dial (signalling over the relay + ICE + the init channel) that takes longer has failed. */
export const DIAL_TIMEOUT_MS = 10_000

/** Relay redial backoff: fast at first (a relay restart takes a second), capped so a dead relay is
 * probed twice a minute. After RELAY_UNREACHABLE_AFTER failures the UI says "unreachable". */
export const RELAY_BACKOFF_MIN_MS = 500
export const RELAY_BACKOFF_MAX_MS = 30_000
export const RELAY_UNREACHABLE_AFTER = 2

/** How often topology (RTT included) and the per-second stats sample are refreshed for the UI. */
export const STATS_SAMPLE_MS = 1_000
export const STATS_HISTORY = 60

/** Peers with per-peer traffic counters at once (the Swarm view's peer table): far more than a tab is
 * connected to; beyond it the least recently heard are forgotten, so strangers cannot grow it. The totals
 * still count everyone. 1,000 × ~250 B ≈ 0.25 MB, copied into the UI store once a second. */
export const MAX_PEER_RECORDS = 1_000

/** How often connected peers are pinged for the RTT column. */
export const PING_INTERVAL_MS = 5_000

/** Pubsub peer discovery advert interval: 1 s makes a new tab findable at once; adverts are ~100 B. */
export const DISCOVERY_INTERVAL_MS = 1_000

/** Largest frame on a bridge `send`/`request` stream; larger payloads belong in several messages. */
export const MAX_STREAM_MESSAGE_BYTES = 4 * 1024 * 1024

/** A peer that handed us this many invalid gossip messages in quick succession is hung up on and refused
 * for BLOCK_MS. It is the count at which gossipsub graylists it anyway (create-browser-node.ts), so every
 * message we ever judged from it is counted and nothing it sends afterwards costs us a parse — or a
 * connection. Only refusals charged to the forwarder count (not the ignored timing and version classes,
 * gossip-validator.ts IGNORED_REASONS). */
export const BLOCK_AFTER_REJECTS = 20
export const BLOCK_MS = 5 * 60_000

/** Hung-up peers remembered at once (each took a connection and BLOCK_AFTER_REJECTS refusals); beyond
 * it the least recently blocked are forgotten and would be hung up on again after as many refusals. */
export const MAX_BLOCKED_PEERS = 1_000

/** Charged refusals are forgotten at this rate (a leaky bucket of BLOCK_AFTER_REJECTS): a peer is hung up
 * on only while its invalid messages arrive faster than one per 10 s on average, so an honest peer's rare
 * bad message (a bug, a schema it read differently) is forgotten within minutes instead of adding up
 * over a day until it is cut off. */
export const REJECTS_FORGIVEN_PER_SECOND = 0.1

/** Peers whose charged refusals are remembered at once: beyond it the least recently refused are
 * forgotten (which at worst hands one a fresh allowance). 2,000 × ~150 B ≈ 0.3 MB. */
export const MAX_REFUSAL_RECORDS = 2_000
