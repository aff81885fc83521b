// Token buckets keyed by string (a signer and a kind): each key may spend `burst` messages at once and
// regains `perSecond` of them per second. The number of buckets is capped: buckets not used for a while
// are dropped, which at worst hands that key a fresh burst.

export interface RateLimit {
  /** sustained messages per second */
  perSecond: number
  /** messages allowed at once after a quiet spell */
  burst: number
}

export interface RateLimiter {
  /** spends one token of `key`'s bucket; false when the bucket is empty */
  take(key: string, limit: RateLimit, now: number): boolean
  readonly size: number
}

interface Bucket {
  tokens: number
  at: number
}

/** A limiter holding at most `maxBuckets` buckets (an even bound of at least 2 is used exactly). */
export function createRateLimiter(maxBuckets: number): RateLimiter {
  // Two generations, as in the replay cache: a used bucket moves into the newer one; when the newer one
  // holds half the bound it becomes the older one and the previous older one — buckets unused for a
  // whole generation — is dropped. O(1) per call even under a flood of new keys.
  const half = Math.max(1, Math.floor(maxBuckets / 2))
  let older = new Map<string, Bucket>()
  let newer = new Map<string, Bucket>()
  return {
    take(key, limit, now) {
      const bucket = newer.get(key) ?? older.get(key)
      older.delete(key)
      if (!newer.has(key) && newer.size >= half) {
        older = newer
        newer = new Map()
      }
      // A clock that steps back refills nothing (and keeps `at`), so a jump forward later is not counted twice.
      const at = Math.max(now, bucket?.at ?? now)
      const refill = bucket ? ((at - bucket.at) * limit.perSecond) / 1000 : limit.burst
      const tokens = Math.min(limit.burst, (bucket?.tokens ?? 0) + refill)
      const allowed = tokens >= 1
      newer.set(key, { tokens: allowed ? tokens - 1 : tokens, at })
      return allowed
    },
    get size() {
      return older.size + newer.size
    },
  }
}
