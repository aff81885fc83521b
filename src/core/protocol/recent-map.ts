// A map that holds at most a fixed number of keys, forgetting those least recently used first, so a
// record per stranger (per peer id, per signer) cannot grow without bound under a flood of new ones.

export interface RecentMap<V> {
  /** the value of `key`, which counts as a use of it */
  get(key: string): V | undefined
  set(key: string, value: V): void
  delete(key: string): void
  entries(): IterableIterator<[string, V]>
  readonly size: number
}

/** A map of at most `maxEntries` keys (an even bound of at least 2 is used exactly). */
export function createRecentMap<V>(maxEntries: number): RecentMap<V> {
  // Two generations: a used key moves into the newer one; when the newer one holds half the bound it
  // becomes the older one and the previous older one — keys unused for a whole generation — is
  // dropped. O(1) per call even under a flood of new keys, where evicting one key at a time from a
  // Map's front would walk the tombstones deleted keys leave behind.
  const half = Math.max(1, Math.floor(maxEntries / 2))
  let older = new Map<string, V>()
  let newer = new Map<string, V>()
  const set = (key: string, value: V): void => {
    if (!newer.has(key)) {
      older.delete(key)
      if (newer.size >= half) {
        older = newer
        newer = new Map()
      }
    }
    newer.set(key, value)
  }
  return {
    get(key) {
      if (newer.has(key)) return newer.get(key)
      if (!older.has(key)) return undefined
      const value = older.get(key) as V
      set(key, value)
      return value
    },
    set,
    delete(key) {
      newer.delete(key)
      older.delete(key)
    },
    *entries() {
      yield* older
      yield* newer
    },
    get size() {
      return older.size + newer.size
    },
  }
}
