/**
 * The attention backward's gradient of the scores: dS = narrow16(softmaxBackward(P, dP) · c), c the
 * 1/√d scale in Q30. Four passes over a [B·H·S, S] tensor, each exponent from the previous pass's
 * maximum. With the wasm kernels the tensors stay in wasm memory for the whole chain (P and dP copied
 * in once, dS out once); each pass is the kernel its op runs, with the op's exponents, so the bits
 * are those of the composition, which stays the definition and the fallback.
 */
import { expForMagnitude, mul } from './elementwise.ts'
import { fitShift, narrow16 } from './narrow.ts'
import { I16_MAX, bitLength } from './rounding.ts'
import { softmaxBackOut, softmaxBackShifts, softmaxBackward } from './softmax.ts'
import { assertShape, maxAbs, qtensor, type QTensor } from './tensor.ts'
import { wasmArena } from './wasm/kernels.ts'

export function scoreGrad(p: QTensor, dp: QTensor, scale: QTensor): QTensor {
  assertShape(dp, p.shape, 'softmax dp')
  return scoreGradResident(p, dp, scale) ?? narrow16(mul(softmaxBackward(p, dp), scale))
}

/** The chain in wasm memory; undefined without the kernels or where a pass leaves their domain. */
function scoreGradResident(p: QTensor, dp: QTensor, scale: QTensor): QTensor | undefined {
  const arena = wasmArena()
  if (!arena || p.shape.length !== 2 || scale.data.length !== 1) return undefined
  const [rows, n] = [p.shape[0]!, p.shape[1]!]
  const count = rows * n
  const [pAt, dpAt, scaleAt] = [arena.put(p.data), arena.put(dp.data), arena.put(scale.data)]
  const [uAt, gradAt, scaledAt] = [arena.alloc(count), arena.alloc(count), arena.alloc(count)]
  // softmaxBackward: the centred rows u, then p·u at the output exponent
  const { guard, ex, t } = softmaxBackShifts(n, dp.exp, arena.maxAbs(dpAt, count))
  if (!arena.softmaxBackRows(pAt, dpAt, uAt, rows, n, guard, t)) return undefined
  const grad = softmaxBackOut(ex, arena.maxAbs(uAt, count))
  if (!arena.mulRow(pAt, uAt, count, gradAt, count, grad.shift)) return undefined
  // mul by the scalar at the exponent of the magnitudes' sum
  const magnitude = (max: number, exp: number) => bitLength(max) + exp
  const exp = expForMagnitude(
    magnitude(arena.maxAbs(gradAt, count), grad.exp) + magnitude(maxAbs(scale.data), scale.exp),
  )
  if (!arena.mulRow(gradAt, scaleAt, 1, scaledAt, count, exp - grad.exp - scale.exp)) return undefined
  // narrow16: one exponent for the tensor, every element rounded once (mulRow by 1; at s = 0 it
  // copies, the values being saturated already)
  const s = fitShift(arena.maxAbs(scaledAt, count), I16_MAX)
  const one = arena.put(Int32Array.of(1))
  if (!arena.mulRow(scaledAt, one, 1, uAt, count, s)) return undefined
  return qtensor(p.shape, exp + s, arena.read(uAt, count))
}
