/**
 * A tiny seeded float generator (mulberry32) for test inputs. Anything that must be reproducible
 * across engines and GPUs (model init, sampling) uses Philox instead.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Uniform floats in [lo, hi). */
export function uniformArray(rand: () => number, n: number, lo: number, hi: number): Float64Array {
  return Float64Array.from({ length: n }, () => lo + (hi - lo) * rand())
}
