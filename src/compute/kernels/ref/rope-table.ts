import { rneBig } from './rounding.ts'

/**
 * RoPE cos/sin tables, computed once on the host with bigint fixed point (2^-96) so every JS engine
 * produces the same table: Math.sin/Math.exp are not correctly rounded and may differ by an ulp
 * between engines. The GPU receives the table as a buffer; no kernel evaluates a trig function.
 */
const F = 96n
const ONE = 1n << F

function div(a: bigint, b: bigint): bigint {
  return (a << F) / b
}

/** Truncates toward zero, so series of negative terms reach 0 (a floor would stick at −1). */
function mul(a: bigint, b: bigint): bigint {
  return (a * b) / ONE
}

/** Σ sign^k z^(2k+1)/(2k+1): atanh (sign 1) or atan (sign −1), for |z| < 1. */
function oddSeries(z: bigint, sign: bigint): bigint {
  const z2 = mul(z, z)
  let power = z
  let sum = 0n
  for (let k = 0n; power !== 0n; k++) {
    sum += (k % 2n === 0n ? 1n : sign) * (power / (2n * k + 1n))
    power = mul(power, z2)
  }
  return sum
}

const LN2 = 2n * oddSeries(ONE / 3n, 1n)
const PI = 16n * oddSeries(ONE / 5n, -1n) - 4n * oddSeries(ONE / 239n, -1n)

function lnInt(n: bigint): bigint {
  const k = BigInt(n.toString(2).length - 1)
  const m = (n << F) >> k // n/2^k in [1, 2)
  return k * LN2 + 2n * oddSeries(div(m - ONE, m + ONE), 1n)
}

function exp(y: bigint): bigint {
  let n = y / LN2
  if (y < 0n && n * LN2 !== y) n -= 1n // floor
  const r = y - n * LN2 // [0, ln 2)
  let term = ONE
  let sum = 0n
  for (let k = 1n; term !== 0n; k++) {
    sum += term
    term = mul(term, r) / k
  }
  return n >= 0n ? sum << n : sum >> -n
}

/** cos and sin by Taylor series after reducing the angle to [−π, π]. */
function cosSin(angle: bigint): [bigint, bigint] {
  const twoPi = 2n * PI
  let a = angle % twoPi
  if (a > PI) a -= twoPi
  let c = 0n
  let s = 0n
  let term = ONE // a^n / n!
  for (let n = 0n; term !== 0n; n++) {
    const signed = n % 4n < 2n ? term : -term
    if (n % 2n === 0n) c += signed
    else s += signed
    term = mul(term, a) / (n + 1n)
  }
  return [c, s]
}

export interface RopeTable {
  readonly headDim: number
  readonly maxSeq: number
  /** cos(pos·θ^(−2i/d)) in Q30, [maxSeq, headDim/2]. */
  readonly cos: Int32Array
  /** sin(pos·θ^(−2i/d)) in Q30, [maxSeq, headDim/2]. */
  readonly sin: Int32Array
}

export function ropeTable(headDim: number, maxSeq: number, theta: number): RopeTable {
  if (headDim % 2 !== 0) throw new RangeError(`RoPE needs an even head dimension, got ${headDim}`)
  if (!Number.isInteger(theta) || theta < 2)
    throw new RangeError(`RoPE theta must be an integer ≥ 2, got ${theta}`)
  const half = headDim / 2
  const lnTheta = lnInt(BigInt(theta))
  const invFreq = Array.from({ length: half }, (_, i) => exp(-(2n * BigInt(i) * lnTheta) / BigInt(headDim)))
  const cos = new Int32Array(maxSeq * half)
  const sin = new Int32Array(maxSeq * half)
  for (let i = 0; i < half; i++) {
    // angle addition: (pos+1)·θ from pos·θ and θ, one product per step instead of a series; the
    // truncation error grows by about 2^-95 per position, far below the 2^-31 the table keeps
    const [c1, s1] = cosSin(invFreq[i]!)
    let [c, s] = [ONE, 0n]
    for (let pos = 0; pos < maxSeq; pos++) {
      cos[pos * half + i] = rneBig(c, Number(F) - 30)
      sin[pos * half + i] = rneBig(s, Number(F) - 30)
      ;[c, s] = [mul(c, c1) - mul(s, s1), mul(s, c1) + mul(c, s1)]
    }
  }
  return { headDim, maxSeq, cos, sin }
}
