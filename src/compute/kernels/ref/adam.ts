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

/** The per-tensor quantities of one step that every element shares. */
interface StepFrame {
  readonly w: QTensor
  readonly g: QTensor
  readonly m: QTensor
  readonly r: QTensor
  readonly m2: QTensor
  readonly r2: QTensor
  readonly w2: QTensor
  readonly scalars: StepScalars
  /** (1−β1), (1−β2) at 2^-40 */
  readonly c1: bigint
  readonly c2: bigint
  /** exact working exponents of (m, g) and (r, g) */
  readonly mw: number
  readonly rw: number
}

function stepFrame(w: QTensor, g: QTensor, state: AdamState, config: AdamConfig, t: number): StepFrame {
  const { m, r } = state
  const mExp = expForMagnitude(Math.max(magnitude(m), magnitude(g)))
  const rExp = expForMagnitude(Math.max(magnitude(r), magnitude(g)))
  return {
    w,
    g,
    m,
    r,
    m2: qtensor(w.shape, mExp),
    r2: qtensor(w.shape, rExp),
    w2: qtensor(w.shape, WEIGHT_EXP),
    scalars: stepScalars(config, t),
    c1: oneMinusQ40(config.beta1),
    c2: oneMinusQ40(config.beta2),
    mw: Math.min(m.exp, g.exp),
    rw: Math.min(r.exp, g.exp),
  }
}

/**
 * Element i of the step, all in exact integers (the definition; adamStep's fast path must match it):
 *   m' = m + (1−β1)(g − m)             rounded once to its new exponent
 *   r' = √(r² + (1−β2)(g² − r²))       rounded to nearest (ties up) at its new exponent
 *   w' = w − α_t·m'/(r' + ε̂_t) − lr·λ·w  (two roundings at 2^-24; 0 when r' + ε̂ is 0)
 */
function exactElement(f: StepFrame, i: number): void {
  const { w, g, m, r, m2, r2, w2, c1, c2, mw, rw } = f
  const { alpha, epsHat, decay } = f.scalars
  const mExp = m2.exp
  const rExp = r2.exp
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
  const step = den === 0n ? 0n : s >= 0 ? divRneBig(num << BigInt(s), den) : divRneBig(num, den << BigInt(-s))
  const wd = rneBig(BigInt(w.data[i]!) * BigInt(decay.m), -decay.exp)
  w2.data[i] = sat32(w.data[i]! - Number(step) - wd)
}

/** One Adam/AdamW step on i32 master weights at 2^-24, exactElement on every element (BigInt). */
export function adamStepExact(
  w: QTensor,
  g: QTensor,
  state: AdamState,
  config: AdamConfig,
): { w: QTensor; state: AdamState } {
  const t = checkStep(w, g, state)
  const f = stepFrame(w, g, state, config, t)
  for (let i = 0; i < w.data.length; i++) exactElement(f, i)
  return { w: f.w2, state: { step: t, m: f.m2, r: f.r2 } }
}

function checkStep(w: QTensor, g: QTensor, state: AdamState): number {
  if (w.exp !== WEIGHT_EXP) throw new RangeError(`adamStep: master weights must be at 2^${WEIGHT_EXP}`)
  assertShape(g, w.shape, 'gradient')
  return state.step + 1
}

/**
 * One Adam/AdamW step with exactElement's bits, in doubles: each element either computes its
 * roundings exactly (fastElements) or, where a bound does not hold or a rounding lies too close to
 * its boundary for the doubles to decide, runs exactElement. About 100× faster than BigInt on every
 * element (Adam was a fifth of a small GRPO step).
 */
export function adamStep(
  w: QTensor,
  g: QTensor,
  state: AdamState,
  config: AdamConfig,
): { w: QTensor; state: AdamState } {
  const t = checkStep(w, g, state)
  const f = stepFrame(w, g, state, config, t)
  fastElements(f)
  return { w: f.w2, state: { step: t, m: f.m2, r: f.r2 } }
}

/** Rounds below 2^50 and fractions at 2^-51 or coarser: what rneOfTerms can sum exactly. */
const TERM_LIMIT = 2 ** 50
const FINEST_FRACTION = 51
/** Relative error allowed for a rounded double chain (≤ 3 roundings give < 2^-51), with a wide margin. */
const SLACK = 2 ** -45

/**
 * Round-half-even of t1 + t2 + t3 + t4, each an exact double below 2^50 in magnitude and a multiple
 * of 2^-51: the floors and the fractions then sum exactly (the fractions stay below 4 at 2^-51).
 */
function rneOfTerms(t1: number, t2: number, t3: number, t4: number): number {
  const f1 = Math.floor(t1)
  const f2 = Math.floor(t2)
  const f3 = Math.floor(t3)
  const f4 = Math.floor(t4)
  const frac = t1 - f1 + (t2 - f2) + (t3 - f3) + (t4 - f4)
  const whole = Math.floor(frac)
  const q = f1 + f2 + f3 + f4 + whole
  const rest = frac - whole
  return rest > 0.5 || (rest === 0.5 && q % 2 !== 0) ? q + 1 : q
}

/**
 * Every element of the step: m' and the decay term by rneOfTerms (their integer products split so
 * each piece is exact in a double), r' and the update by rounded doubles checked against the rounding
 * boundary (the rounded chain is within 2^-51 relative of the exact value, so a value farther than
 * SLACK from the boundary rounds the same). exactElement where either does not hold.
 */
function fastElements(f: StepFrame): void {
  const { w, g, m, r, m2, r2, w2, mw } = f
  const { alpha, epsHat, decay } = f.scalars
  const mExp = m2.exp
  const rExp = r2.exp
  // m' = rne((mi·2^40 + c1·u)·2^-D), u = gm − mi, c1 = (c1a·2^14 + c1b)·2^14 + c1c (14-bit pieces):
  // four exact terms while |u| < 2^39
  const d = mExp - mw + 40
  const c1 = Number(f.c1)
  const c1a = Math.floor(c1 / 2 ** 28)
  const c1b = Math.floor(c1 / 2 ** 14) - c1a * 2 ** 14
  const c1c = c1 - Math.floor(c1 / 2 ** 14) * 2 ** 14
  const mScale = 2 ** (m.exp - mExp)
  const mAt = 2 ** (m.exp - mw)
  const gAt = 2 ** (g.exp - mw)
  const aScale = 2 ** (28 - d)
  const bScale = 2 ** (14 - d)
  const cScale = 2 ** -d
  // Y = ρ²(1 − c2') + c2'·γ², ρ = r at rExp, γ = g at rExp; r' = ⌊√Y + 1/2⌋ (floor(√floor x) = floor(√x))
  const c2 = Number(f.c2) * 2 ** -40
  const keep2 = 1 - c2
  const rScale = 2 ** (r.exp - rExp)
  const gScale = 2 ** (g.exp - rExp)
  // update: m'·α·2^(mExp + α.exp + 24) / (r'·2^rExp + ε̂), rounded half-even
  const numScale = 2 ** (mExp + alpha.exp - WEIGHT_EXP)
  const rUnit = 2 ** rExp
  const eps = epsHat.m * 2 ** epsHat.exp
  // decay: rne(w·decay.m·2^decay.exp), decay.m = dh·2^15 + dl
  const dh = Math.floor(decay.m / 2 ** 15)
  const dl = decay.m - dh * 2 ** 15
  const dhScale = 2 ** (15 + decay.exp)
  const dlScale = 2 ** decay.exp
  const frameOk = d <= FINEST_FRACTION && -decay.exp <= FINEST_FRACTION && c1 < 2 ** 41
  for (let i = 0; i < w.data.length; i++) {
    if (!frameOk || !fastElement(i)) exactElement(f, i)
  }

  function fastElement(i: number): boolean {
    const mv = m.data[i]!
    const gv = g.data[i]!
    const u = gv * gAt - mv * mAt
    if (!(Math.abs(u) < 2 ** 39)) return false
    const t1 = mv * mScale
    const t2 = c1a * u * aScale
    const t3 = c1b * u * bScale
    const t4 = c1c * u * cScale
    if (!(
      Math.abs(t1) < TERM_LIMIT &&
      Math.abs(t2) < TERM_LIMIT &&
      Math.abs(t3) < TERM_LIMIT &&
      Math.abs(t4) < TERM_LIMIT
    ))
      return false
    const mNew = sat32(rneOfTerms(t1, t2, t3, t4))

    const rho = r.data[i]! * rScale
    const gamma = gv * gScale
    const root = Math.sqrt(rho * rho * keep2 + c2 * (gamma * gamma)) + 0.5
    const rFloor = Math.floor(root)
    const rFrac = root - rFloor
    const rSlack = root * SLACK + 2 ** -40
    if (rFrac < rSlack || rFrac > 1 - rSlack) return false
    const rNew = sat32(rFloor)

    const den = rNew * rUnit + eps
    let step = 0
    if (den !== 0) {
      const q = Math.abs((mNew * alpha.m * numScale) / den)
      if (!(q < TERM_LIMIT)) return false
      const qFloor = Math.floor(q)
      const qFrac = q - qFloor
      if (Math.abs(qFrac - 0.5) <= q * SLACK + 2 ** -60) return false
      step = qFrac < 0.5 ? qFloor : qFloor + 1
      if (mNew < 0) step = -step
    }
    const wv = w.data[i]!
    const w1 = wv * dh * dhScale
    const w0 = wv * dl * dlScale
    if (!(Math.abs(w1) < TERM_LIMIT && Math.abs(w0) < TERM_LIMIT)) return false
    m2.data[i] = mNew
    r2.data[i] = rNew
    w2.data[i] = sat32(wv - step - rneOfTerms(w1, w0, 0, 0))
    return true
  }
}
