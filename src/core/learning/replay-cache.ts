// A set of recently seen message keys that forgets each key at its expiry time and never holds more than
// a fixed number of keys, so a flood of distinct messages cannot grow it without bound.

export interface ReplayCache {
  /** whether `key` was added and has not expired at `now` */
  has(key: string, now: number): boolean
  /** remembers `key` while the time is at most `expiresAt`; when full, the older half of the keys is forgotten */
  add(key: string, expiresAt: number, now: number): void
  readonly size: number
}

interface Generation {
  expiries: Map<string, number>
  /** the latest expiry in the generation: once past it, the whole generation can go */
  latest: number
}
const emptyGeneration = (): Generation => ({ expiries: new Map(), latest: -Infinity })

/** A cache of at most `maxEntries` keys (an even bound of at least 2 is used exactly). */
export function createReplayCache(maxEntries: number): ReplayCache {
  // Two generations: keys go into the newer; when it holds half the bound it becomes the older one and
  // the previous older one is dropped. Every operation is O(1) — evicting one key at a time from a Map's
  // front would walk the tombstones deleted keys leave behind, which a flood turns quadratic. Memory is
  // reclaimed a generation at a time: one whose keys have all expired is dropped whole.
  const half = Math.max(1, Math.floor(maxEntries / 2))
  let older = emptyGeneration()
  let newer = emptyGeneration()
  return {
    has(key, now) {
      const expiresAt = newer.expiries.get(key) ?? older.expiries.get(key)
      return expiresAt !== undefined && expiresAt >= now
    },
    add(key, expiresAt, now) {
      if (older.latest < now) older = emptyGeneration()
      if (newer.latest < now) newer = emptyGeneration()
      if (newer.expiries.size >= half) {
        older = newer
        newer = emptyGeneration()
      }
      newer.expiries.set(key, expiresAt)
      newer.latest = Math.max(newer.latest, expiresAt)
    },
    get size() {
      return older.expiries.size + newer.expiries.size
    },
  }
}
