// Token buckets keyed by string (a signer and a kind): each key may spend `burst` messages at once and
// regains `perSecond` of them per second. The number of buckets is capped: buckets not used for a while
// are dropped, which at worst hands that key a fresh burst.
import { createRecentMap } from './recent-map.ts'

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
  const buckets = createRecentMap<Bucket>(maxBuckets)
  return {
    take(key, limit, now) {
      const bucket = buckets.get(key)
      // A clock that steps back refills nothing (and keeps `at`), so a jump forward later is not counted twice.
      const at = Math.max(now, bucket?.at ?? now)
      const refill = bucket ? ((at - bucket.at) * limit.perSecond) / 1000 : limit.burst
      const tokens = Math.min(limit.burst, (bucket?.tokens ?? 0) + refill)
      const allowed = tokens >= 1
      buckets.set(key, { tokens: allowed ? tokens - 1 : tokens, at })
      return allowed
    },
    get size() {
      return buckets.size
    },
  }
}
