import { expForMagnitude, magnitude } from './elementwise.ts'
import { rneBig, sat32 } from './rounding.ts'
import { assertShape, qtensor, type QTensor } from './tensor.ts'
import {
  isqrt,
  wideDiv,
  wideFromFloat,
  wideMul,
  widePow,
  wideSqrt,
  wideToMantissa,
  WIDE_ONE,
} from './wide-scalar.ts'

/** Master weights are i32 at 2^-24 (range ±128): every learning rate down to 1e-6 still moves them. */
export const WEIGHT_EXP = -24

export interface AdamConfig {
  readonly lr: number
  readonly beta1: number
  readonly beta2: number
  readonly eps: number
  /** Decoupled (AdamW) decay; 0 gives Adam. */
  readonly weightDecay: number
}

/**
 * Per-tensor optimizer state. m and r = √v are block floating point: i32 mantissas with one exponent
 * each, re-chosen every step from the maxima. Keeping √v instead of v gives it the gradient's dynamic
 * range (v would need 62 bits), so v cannot round to 0 while m is nonzero: the Q16.16 failure.
 */
export interface AdamState {
  readonly step: number
  readonly m: QTensor
  readonly r: QTensor
}

export function adamInit(shape: readonly number[]): AdamState {
  return { step: 0, m: qtensor(shape, WEIGHT_EXP), r: qtensor(shape, WEIGHT_EXP) }
}

/** (1−β) at 2^-40 (up to 2^40, 41 bits); the EMA is written x + (1−β)(y − x) so β itself is never needed. */
export function oneMinusQ40(beta: number): bigint {
  return (WIDE_ONE - wideFromFloat(beta)) >> 22n
}

export interface StepScalars {
  /** lr·√(1−β2^t)/(1−β1^t) */
  readonly alpha: { m: number; exp: number }
  /** ε·√(1−β2^t): PyTorch's m̂/(√v̂ + ε) rewritten on the uncorrected m and √v */
  readonly epsHat: { m: number; exp: number }
  /** lr·λ */
  readonly decay: { m: number; exp: number }
}

/** The host scalars of step t (the WGSL kernel receives the same mantissas and exponents). */
export function stepScalars(config: AdamConfig, t: number): StepScalars {
  const c2 = wideSqrt(WIDE_ONE - widePow(wideFromFloat(config.beta2), t))
  const c1 = WIDE_ONE - widePow(wideFromFloat(config.beta1), t)
  const lr = wideFromFloat(config.lr)
  return {
    alpha: wideToMantissa(wideDiv(wideMul(lr, c2), c1)),
    epsHat: wideToMantissa(wideMul(wideFromFloat(config.eps), c2)),
    decay: wideToMantissa(wideMul(lr, wideFromFloat(config.weightDecay))),
  }
}

/** Exact value x·2^e at exponent `at` (≤ e). */
function at(x: number, e: number, atExp: number): bigint {
  return BigInt(x) << BigInt(e - atExp)
}

/** RNE of n/d for bigints, d > 0. */
function divRneBig(n: bigint, d: bigint): bigint {
  const neg = n < 0n
  const a = neg ? -n : n
  let q = a / d
  const r2 = 2n * (a - q * d)
  if (r2 > d || (r2 === d && (q & 1n) === 1n)) q += 1n
  return neg ? -q : q
}

/**
 * One Adam/AdamW step on i32 master weights at 2^-24. Per element, all in exact integers:
 *   m' = m + (1−β1)(g − m)             rounded once to its new exponent
 *   r' = √(r² + (1−β2)(g² − r²))       rounded to nearest (ties up) at its new exponent
 *   w' = w − α_t·m'/(r' + ε̂_t) − lr·λ·w  (two roundings at 2^-24; 0 when r' + ε̂ is 0)
 */
export function adamStep(
  w: QTensor,
  g: QTensor,
  state: AdamState,
  config: AdamConfig,
): { w: QTensor; state: AdamState } {
  if (w.exp !== WEIGHT_EXP) throw new RangeError(`adamStep: master weights must be at 2^${WEIGHT_EXP}`)
  assertShape(g, w.shape, 'gradient')
  const t = state.step + 1
  const { alpha, epsHat, decay } = stepScalars(config, t)
  const c1 = oneMinusQ40(config.beta1)
  const c2 = oneMinusQ40(config.beta2)
  const { m, r } = state
  const mExp = expForMagnitude(Math.max(magnitude(m), magnitude(g)))
  const rExp = expForMagnitude(Math.max(magnitude(r), magnitude(g)))
  const mw = Math.min(m.exp, g.exp) // exact working exponent of m and g
  const rw = Math.min(r.exp, g.exp)
  const m2 = qtensor(w.shape, mExp)
  const r2 = qtensor(w.shape, rExp)
  const w2 = qtensor(w.shape, WEIGHT_EXP)
  for (let i = 0; i < w.data.length; i++) {
    const mi = at(m.data[i]!, m.exp, mw)
    const gm = at(g.data[i]!, g.exp, mw)
    m2.data[i] = sat32(rneBig((mi << 40n) + c1 * (gm - mi), mExp - mw + 40))
    const ri = at(r.data[i]!, r.exp, rw)
    const gr = at(g.data[i]!, g.exp, rw)
    const v = ((ri * ri) << 40n) + c2 * (gr * gr - ri * ri) // at exponent 2·rw − 40
    // √ at rExp: nearest of √(v·2^(2rw−40−2rExp)), via floor(2√Y) = isqrt(floor(4Y))
    const sh = 2 * rw - 40 - 2 * rExp + 2
    const four = sh >= 0 ? v << BigInt(sh) : v >> BigInt(-sh)
    r2.data[i] = sat32(Number((isqrt(four) + 1n) >> 1n))

    // update α·m'/(r' + ε̂) at 2^-24, with m', r', ε̂ aligned to one exponent
    const e = Math.min(mExp, rExp, epsHat.exp)
    const den = at(r2.data[i]!, rExp, e) + at(epsHat.m, epsHat.exp, e)
    const num = at(m2.data[i]!, mExp, e) * BigInt(alpha.m)
    const s = alpha.exp - WEIGHT_EXP // num·2^alpha.exp / den at 2^-24
    const step =
      den === 0n ? 0n : s >= 0 ? divRneBig(num << BigInt(s), den) : divRneBig(num, den << BigInt(-s))
    const wd = rneBig(BigInt(w.data[i]!) * BigInt(decay.m), -decay.exp)
    w2.data[i] = sat32(w.data[i]! - Number(step) - wd)
  }
  return { w: w2, state: { step: t, m: m2, r: r2 } }
}
