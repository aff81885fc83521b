import { expFixed } from './exp.ts'
import { expForMagnitude, magnitude } from './elementwise.ts'
import { mulRneEach, mulRneExactEach } from './mul-each.ts'
import { divRne } from './rounding.ts'
import { assertShape, qtensor, type QTensor } from './tensor.ts'
import { swigluBackWasm } from './wasm/elementwise-kernels.ts'
import { sigmoidRowWasm } from './wasm/kernels.ts'

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
  if (!sigmoidRowWasm(x.data, x.exp, sig))
    for (let i = 0; i < sig.length; i++) sig[i] = sigmoidQ30(x.data[i]!, x.exp)
  sigmoids.set(x.data, { exp: x.exp, sig })
  return sig
}

/** SiLU x·σ(x) at the input's exponent (|silu(x)| ≤ |x|, so it never saturates). */
export function silu(x: QTensor): QTensor {
  const sig = sigmoidsOf(x)
  const out = qtensor(x.shape, x.exp)
  mulRneEach(x.data, sig, 30, out.data)
  return out
}

/** SwiGLU silu(gate) ⊙ up at outExp (two roundings: the SiLU, then the product). */
export function swiglu(gate: QTensor, up: QTensor, outExp: number): QTensor {
  assertShape(up, gate.shape, 'swiglu up')
  const s = silu(gate)
  const out = qtensor(gate.shape, outExp)
  mulRneEach(s.data, up.data, outExp - s.exp - up.exp, out.data)
  return out
}

/**
 * SiLU'(x) = σ(x)·(1 + x·(1 − σ(x))) in Q30 of every element, from sig = σ(x): q = mulRne(σ, 1 − σ, 30),
 * then σ + mulRne(x, q, −xExp) (unsaturated, stored as i32); its range [−0.1, 1.1] fits. Both
 * products go through the exact elementwise kernels (q < 2^28 is an i32).
 */
function siluGradsQ30(x: QTensor, sig: Int32Array): Int32Array {
  const n = sig.length
  const oneMinus = new Int32Array(n)
  for (let i = 0; i < n; i++) oneMinus[i] = ONE_Q30 - sig[i]!
  const products = mulRneExactEach(sig, oneMinus, 30, new Float64Array(n))
  const q = Int32Array.from(products)
  mulRneExactEach(x.data, q, -x.exp, products)
  const grad = new Int32Array(n)
  for (let i = 0; i < n; i++) grad[i] = sig[i]! + products[i]!
  return grad
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
  const n = gate.data.length
  const dUp = qtensor(gate.shape, upExp)
  const dGate = qtensor(gate.shape, gateExp)
  const shifts = {
    up: upExp - dy.exp - s.exp,
    t: tExp - dy.exp - up.exp,
    gate: -gate.exp,
    dGate: 30 + gateExp - tExp,
  }
  if (swigluBackWasm(gate.data, up.data, dy.data, sig, shifts, dUp.data, dGate.data)) return { dGate, dUp }
  mulRneEach(dy.data, s.data, shifts.up, dUp.data)
  const t = mulRneEach(dy.data, up.data, shifts.t, new Int32Array(n))
  const grad = siluGradsQ30(gate, sig)
  mulRneEach(t, grad, shifts.dGate, dGate.data)
  return { dGate, dUp }
}
