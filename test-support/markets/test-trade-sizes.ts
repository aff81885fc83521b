// Random trade sizes shared by the tests that replay the TS maths against the contracts
// (src/core/markets/contracts-match.test.ts on anvil, contracts/test/market-vectors.ts for forge): mostly
// sensible sizes, with zero, below-minimum, too-large and dust-leaving ones mixed in so that every
// size check of the gateway is exercised.
import { MIN_SHARES_DELTA } from '../../src/core/markets/dpm/dpm.ts'
import { WAD } from '../../src/core/markets/fixed-point.ts'
import type { Rng } from './test-rng.ts'

/** A value of uniformly random bit length in [lo, hi]. */
export function logUniform(rng: Rng, lo: bigint, hi: bigint): bigint {
  const bits = rng.int(lo.toString(2).length, hi.toString(2).length)
  const v = rng.big(1n << BigInt(bits - 1), (1n << BigInt(bits)) - 1n)
  return v < lo ? lo : v > hi ? hi : v
}

/** A buy size: mostly 0.1–2,000 shares, sometimes zero, below MIN_SHARES_DELTA or tiny. */
export function shareSize(rng: Rng): bigint {
  const r = rng.int(0, 19)
  if (r === 0) return 0n
  if (r === 1) return rng.big(1n, MIN_SHARES_DELTA - 1n)
  if (r <= 3) return logUniform(rng, MIN_SHARES_DELTA, 10n ** 17n)
  return logUniform(rng, 10n ** 17n, 2_000n * WAD)
}

/** A sell size for a trader holding `held` of an outcome whose supply is `supply`. */
export function sellSize(rng: Rng, held: bigint, supply: bigint): bigint {
  const r = rng.int(0, 9)
  if (r === 0) return supply + rng.big(1n, WAD) // more than the supply
  if (r === 1) return rng.big(0n, MIN_SHARES_DELTA) // too small
  if (held === 0n) return shareSize(rng)
  if (r === 2) return held
  if (r === 3 && held > MIN_SHARES_DELTA) return held - rng.big(1n, MIN_SHARES_DELTA - 1n) // dust left
  return rng.big(1n, held)
}

/** An outcome to trade: for a sell mostly one the trader holds; rarely one out of range. */
export function pickOutcome(rng: Rng, n: number, holdings?: readonly bigint[]): number {
  const held = (holdings ?? []).flatMap((h, i) => (h > 0n ? [i] : []))
  if (held.length > 0 && rng.int(0, 4) > 0) return rng.pick(held)
  return rng.int(0, 40) === 0 ? n + rng.int(0, 3) : rng.int(0, n - 1)
}
