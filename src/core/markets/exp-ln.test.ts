import { describe, expect, it } from 'vitest'
import {
  EXP_ERR_RAY,
  LN_ERR_RAY,
  MAX_EXP_INPUT_RAY,
  RAY,
  expUpWad,
  lnRatioDown,
  lnRatioUp,
} from './exp-ln.ts'
import { WAD } from './fixed-point.ts'
import { Rng } from '../../../test-support/markets/test-rng.ts'

// High-precision references at P = 1e60, by methods different from the module's
// (exp: halve the argument, Taylor, square back; ln: repeated integer square roots, then ln(1+u)).
const P = 10n ** 60n
const HALVINGS = 24n

function isqrt(x: bigint): bigint {
  if (x < 2n) return x
  let r = x
  let y = (x + 1n) / 2n
  while (y < r) {
    r = y
    y = (r + x / r) / 2n
  }
  return r
}

/** e^(xRay/1e27)·P, relative error ~1e-50. */
function expRef(xRay: bigint): bigint {
  const x = (xRay * 10n ** 33n) >> HALVINGS
  let sum = P
  let term = P
  for (let i = 1n; term !== 0n; i++) {
    term = (term * x) / (P * i)
    sum += term
  }
  for (let i = 0n; i < HALVINGS; i++) sum = (sum * sum) / P
  return sum
}

/** ln(num/den)·P for num ≥ den, relative error ~1e-45. */
function lnRef(num: bigint, den: bigint): bigint {
  let a = (num * P) / den
  let doublings = 0n
  while (a - P > P / 10n ** 8n) {
    a = isqrt(a * P)
    doublings++
  }
  const u = a - P
  let sum = 0n
  let pow = u
  for (let i = 1n; pow !== 0n; i++) {
    sum += (i % 2n === 1n ? 1n : -1n) * (pow / i)
    pow = (pow * u) / P
  }
  return sum << doublings
}

describe('expUpWad', () => {
  it('is an upper bound within 1e-24 relative (+1 wei) of e^x on [0, 130]', () => {
    const rng = new Rng(7)
    const xs = [0n, 1n, RAY, 693147180559945309417232121n, 693147180559945309417232122n, MAX_EXP_INPUT_RAY]
    for (let i = 0; i < 300; i++) xs.push(rng.big(0n, MAX_EXP_INPUT_RAY), rng.logBig(1n, MAX_EXP_INPUT_RAY))
    for (const x of xs) {
      const up = expUpWad(x) // WAD
      const ref = expRef(x) // P
      // up·P/1e18 ≥ ref, and up − ref·1e18/P ≤ ref·1e-24·1e18/P + 1
      expect(up * (P / WAD) >= ref).toBe(true)
      expect((up - 1n) * (P / WAD) * 10n ** 24n <= ref * (10n ** 24n + 1n)).toBe(true)
    }
    expect(expUpWad(0n)).toBe(WAD) // exact
    expect(expUpWad(1n)).toBe(WAD + 1n) // ⌈(1e27 + 1·0 + EXP_ERR)/1e9⌉
    expect(EXP_ERR_RAY).toBe(200n)
  })

  it('agrees with Math.exp', () => {
    for (let x = 0; x <= 130; x += 0.37) {
      const got = Number(expUpWad(BigInt(Math.round(x * 1e6)) * 10n ** 21n)) / 1e18
      const want = Math.exp(Math.round(x * 1e6) / 1e6)
      // Float tolerance: the double x itself is off by up to x·2^-53 ≈ 1.4e-14 at x = 130.
      expect(Math.abs(got - want) / want).toBeLessThan(1e-13)
    }
  })

  it('is monotone, including across the range-reduction boundaries k·ln2', () => {
    const rng = new Rng(9)
    for (let k = 1n; k * 693147180559945309417232121n <= MAX_EXP_INPUT_RAY; k++) {
      const edge = k * 693147180559945309417232121n
      for (const x of [edge - 2n, edge - 1n, edge]) expect(expUpWad(x + 1n) >= expUpWad(x)).toBe(true)
    }
    for (let i = 0; i < 300; i++) {
      const x = rng.big(0n, MAX_EXP_INPUT_RAY - 10n ** 9n)
      expect(expUpWad(x + rng.big(1n, 10n ** 9n)) >= expUpWad(x)).toBe(true)
    }
  })

  it('refuses inputs past e^130', () => {
    expect(() => expUpWad(MAX_EXP_INPUT_RAY + 1n)).toThrow(/ExpInputTooBig/)
    expect(() => expUpWad(MAX_EXP_INPUT_RAY)).not.toThrow()
  })
})

describe('lnRatioDown / lnRatioUp', () => {
  it('bracket ln(num/den) within LN_ERR_RAY (1e-24)', () => {
    const rng = new Rng(8)
    const pairs: [bigint, bigint][] = [
      [1n, 1n],
      [2n, 1n],
      [3n * WAD, WAD],
      [20n * WAD, WAD],
      [(1n << 255n) - 1n, 1n],
      [10n ** 75n, 10n ** 75n - 1n],
    ]
    for (let i = 0; i < 300; i++) {
      const den = rng.logBig(1n, 10n ** 76n)
      const num = den + rng.logBig(0n, 10n ** 76n - den)
      pairs.push([num, den])
    }
    let worst = 0n
    for (const [num, den] of pairs) {
      const down = lnRatioDown(num, den) * 10n ** 33n
      const up = lnRatioUp(num, den) * 10n ** 33n
      const ref = lnRef(num, den)
      const slack = 10n ** 15n // the reference's own error at P, far below one RAY ulp (1e33)
      expect(down <= ref + slack).toBe(true)
      expect(up + slack >= ref).toBe(true)
      expect(up - down).toBe(LN_ERR_RAY * 10n ** 33n)
      if (ref - down > worst) worst = ref - down
    }
    // The documented bound is generous: the observed shortfall stays well under it.
    expect(worst < (LN_ERR_RAY * 10n ** 33n) / 2n).toBe(true)
  })

  it('agrees with Math.log and refuses ratios below one', () => {
    for (let x = 1; x < 1e6; x *= 1.7) {
      const num = BigInt(Math.round(x * 1e6)) * 10n ** 12n
      const got = Number(lnRatioDown(num, WAD)) / 1e27
      expect(Math.abs(got - Math.log(Math.round(x * 1e6) / 1e6))).toBeLessThan(1e-14)
    }
    expect(lnRatioDown(WAD, WAD)).toBe(0n)
    expect(() => lnRatioDown(1n, 2n)).toThrow(/LnRatioBelowOne/)
    expect(() => lnRatioDown(1n, 0n)).toThrow(/LnRatioBelowOne/)
  })
})
