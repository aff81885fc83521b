import type { QTensor } from '../kernels/ref/tensor.ts'
import { op, type Program } from './program.ts'

/**
 * y = x·Wᵀ for W [out, in] (torch.nn.Linear layout). The weight is narrowed to int16 mantissas (its
 * exponent depends on the weight alone); x stays wide, so the product is exact up to the rounding to
 * outExp.
 */
export function* linear(x: QTensor, w: QTensor, outExp: number): Program<QTensor> {
  return yield* op('matmul', x, yield* op('narrow16', w), { transB: true, outExp })
}

export interface LinearGrads {
  readonly dx: QTensor
  readonly dw: QTensor
}

/** dx = dy·W (dy wide, W narrowed as in the forward); dW = narrow16(dy)ᵀ·x (x wide). */
export function* linearBackward(x: QTensor, w: QTensor, dy: QTensor): Program<LinearGrads> {
  const dx = yield* op('matmul', dy, yield* op('narrow16', w))
  const dw = yield* op('matmul', yield* op('narrow16', dy), x, { transA: true })
  return { dx, dw }
}
