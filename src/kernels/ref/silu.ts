import { expFixed } from './exp.ts'
import { expForMagnitude, magnitude } from './elementwise.ts'
import { divRne, mulRne, sat32 } from './rounding.ts'
import { assertShape, qtensor, type QTensor } from './tensor.ts'

const ONE_Q30 = 2 ** 30

/** σ(x·2^xExp) in Q30: 1/(1 + e^-|x|) by one long division, mirrored for x < 0 (exact symmetry). */
export function sigmoidQ30(x: number, xExp: number): number {
  const e = expFixed(-Math.abs(x), xExp, -30)
  const pos = divRne(ONE_Q30, ONE_Q30 + e, 30)
  return x < 0 ? ONE_Q30 - pos : pos
}

/**
 * σ of every element in Q30, remembered per tensor: SwiGLU's backward takes the forward's gate again
 * and needs the same sigmoids for silu and silu'. Sound because tensors are values (no op writes its
 * inputs, nothing writes a tensor after handing it to an op); the exponent is checked too.
 */
const sigmoids = new WeakMap<Int32Array, { readonly exp: number; readonly sig: Int32Array }>()
function sigmoidsOf(x: QTensor): Int32Array {
  const hit = sigmoids.get(x.data)
  if (hit && hit.exp === x.exp) return hit.sig
  const sig = new Int32Array(x.data.length)
  for (let i = 0; i < sig.length; i++) sig[i] = sigmoidQ30(x.data[i]!, x.exp)
  sigmoids.set(x.data, { exp: x.exp, sig })
  return sig
}

/** SiLU x·σ(x) at the input's exponent (|silu(x)| ≤ |x|, so it never saturates). */
export function silu(x: QTensor): QTensor {
  const sig = sigmoidsOf(x)
  const out = qtensor(x.shape, x.exp)
  for (let i = 0; i < x.data.length; i++) out.data[i] = sat32(mulRne(x.data[i]!, sig[i]!, 30))
  return out
}

/** SwiGLU silu(gate) ⊙ up at outExp (two roundings: the SiLU, then the product). */
export function swiglu(gate: QTensor, up: QTensor, outExp: number): QTensor {
  assertShape(up, gate.shape, 'swiglu up')
  const s = silu(gate)
  const out = qtensor(gate.shape, outExp)
  const shift = outExp - s.exp - up.exp
  for (let i = 0; i < out.data.length; i++) out.data[i] = sat32(mulRne(s.data[i]!, up.data[i]!, shift))
  return out
}

/** SiLU'(x) = σ(x)·(1 + x·(1 − σ(x))) in Q30 from sig = σ(x); its range [−0.1, 1.1] fits. */
function siluGradQ30(x: number, xExp: number, sig: number): number {
  const q = mulRne(sig, ONE_Q30 - sig, 30)
  return sig + mulRne(x, q, -xExp)
}

export interface SwigluGrads {
  readonly dGate: QTensor
  readonly dUp: QTensor
}

/** The backward's exponents, from the operands' maxima (s = silu(gate)). */
export interface SwigluBackwardExps {
  readonly upExp: number
  /** Exponent of t = dy ⊙ up, the product dGate scales by silu'. */
  readonly tExp: number
  readonly gateExp: number
}

export function swigluBackwardExps(s: QTensor, up: QTensor, dy: QTensor): SwigluBackwardExps {
  const tExp = expForMagnitude(magnitude(dy) + magnitude(up))
  return {
    upExp: expForMagnitude(magnitude(dy) + magnitude(s)),
    tExp,
    gateExp: tExp + 1, // |silu'| < 2
  }
}

/** dUp = dy ⊙ silu(gate); dGate = dy ⊙ up ⊙ silu'(gate). Exponents from the operands' maxima. */
export function swigluBackward(gate: QTensor, up: QTensor, dy: QTensor): SwigluGrads {
  assertShape(up, gate.shape, 'swiglu up')
  assertShape(dy, gate.shape, 'swiglu dy')
  const s = silu(gate)
  const sig = sigmoidsOf(gate)
  const { upExp, tExp, gateExp } = swigluBackwardExps(s, up, dy)
  const dUp = qtensor(gate.shape, upExp)
  const dGate = qtensor(gate.shape, gateExp)
  for (let i = 0; i < gate.data.length; i++) {
    const g = dy.data[i]!
    dUp.data[i] = sat32(mulRne(g, s.data[i]!, upExp - dy.exp - s.exp))
    const t = sat32(mulRne(g, up.data[i]!, tExp - dy.exp - up.exp))
    dGate.data[i] = sat32(mulRne(t, siluGradQ30(gate.data[i]!, gate.exp, sig[i]!), 30 + gateExp - tExp))
  }
  return { dGate, dUp }
}
