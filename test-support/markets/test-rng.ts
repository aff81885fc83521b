/** Tiny seeded PRNG (splitmix64) for the property tests: deterministic across runs and machines. */
export class Rng {
  private state: bigint

  constructor(seed: number | bigint) {
    this.state = BigInt.asUintN(64, BigInt(seed))
  }

  /** Next 64 random bits. */
  next64(): bigint {
    this.state = BigInt.asUintN(64, this.state + 0x9e3779b97f4a7c15n)
    let z = this.state
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n)
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn)
    return z ^ (z >> 31n)
  }

  /** Uniform bigint in [lo, hi] (inclusive). */
  big(lo: bigint, hi: bigint): bigint {
    const span = hi - lo + 1n
    const bits = span.toString(2).length + 64
    let r = 0n
    for (let b = 0; b < bits; b += 64) r = (r << 64n) | this.next64()
    return lo + (r % span)
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return Number(this.big(BigInt(lo), BigInt(hi)))
  }

  /** Roughly log-uniform bigint in [lo, hi]: a random bit length, then a random value of that length. */
  logBig(lo: bigint, hi: bigint): bigint {
    const maxBits = hi.toString(2).length
    const bits = this.int(1, maxBits)
    const v = this.big(1n << BigInt(bits - 1), (1n << BigInt(bits)) - 1n)
    return v < lo ? lo + (v % (hi - lo + 1n)) : v > hi ? hi : v
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)] as T
  }
}
