// Timings of the browser node. Each value says why it is what it is.

/** How often the dialer walks the peer store: `peer:discovery` fires once and failed dials are not
 * retried by libp2p, so a periodic sweep is what makes the mesh converge. */
export const DIAL_SWEEP_MS = 1_000

/** Backoff for a peer whose dial failed: first retry soon (the other side may still be reserving its
 * relay slot), then slower so a dead peer costs little. */
export const DIAL_BACKOFF_MIN_MS = 1_000
export const DIAL_BACKOFF_MAX_MS = 15_000

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

/** How often connected peers are pinged for the RTT column. */
export const PING_INTERVAL_MS = 5_000

/** Pubsub peer discovery advert interval: 1 s makes a new tab findable at once; adverts are ~100 B. */
export const DISCOVERY_INTERVAL_MS = 1_000

/** Largest frame on a bridge `send`/`request` stream; larger payloads belong in several messages. */
export const MAX_STREAM_MESSAGE_BYTES = 4 * 1024 * 1024

/** A peer that sent this many invalid gossip messages is hung up on and refused for BLOCK_MS. It is the
 * count at which gossipsub graylists it anyway (create-browser-node.ts), so every message we ever judged
 * from it is counted and nothing it sends afterwards costs us a parse — or a connection. */
export const BLOCK_AFTER_REJECTS = 20
export const BLOCK_MS = 5 * 60_000
