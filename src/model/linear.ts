import { matmul } from '../kernels/ref/matmul.ts'
import { narrow16 } from '../kernels/ref/narrow.ts'
import type { QTensor } from '../kernels/ref/tensor.ts'

/**
 * y = x·Wᵀ for W [out, in] (torch.nn.Linear layout). The weight is narrowed to int16 mantissas (its
 * exponent depends on the weight alone); x stays wide, so the product is exact up to the rounding to
 * outExp.
 */
export function linear(x: QTensor, w: QTensor, outExp: number): QTensor {
  return matmul(x, narrow16(w), { transB: true, outExp })
}

export interface LinearGrads {
  readonly dx: QTensor
  readonly dw: QTensor
}

/** dx = dy·W (dy wide, W narrowed as in the forward); dW = narrow16(dy)ᵀ·x (x wide). */
export function linearBackward(x: QTensor, w: QTensor, dy: QTensor): LinearGrads {
  return {
    dx: matmul(dy, narrow16(w)),
    dw: matmul(narrow16(dy), x, { transA: true }),
  }
}
