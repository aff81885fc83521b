/// <reference types="@webgpu/types" />
import { expForMagnitude, magnitude } from '../ref/elementwise.ts'
import { fitShift } from '../ref/narrow.ts'
import { I16_MAX } from '../ref/rounding.ts'
import { assertShape, maxAbs, qtensor, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

/** Largest exponent gap add handles: a·2^gap stays below 2^128. */
export const MAX_ADD_GAP = 96

export interface ElementwiseKernel {
  /** The twin's add, mul, requantize, narrow16 and neg: same contracts, same bits. */
  add(a: QTensor, b: QTensor, outExp?: number): Promise<QTensor>
  mul(a: QTensor, b: QTensor, outExp?: number): Promise<QTensor>
  requantize(a: QTensor, outExp: number): Promise<QTensor>
  narrow16(a: QTensor): Promise<QTensor>
  neg(a: QTensor): Promise<QTensor>
}

const enum Op {
  Add = 0,
  Mul = 1,
  Requantize = 2,
  Neg = 3,
}

/** Host for shaders/elementwise.wgsl; exponents are chosen here exactly as the twin chooses them. */
export function createElementwiseKernel(
  device: GPUDevice,
  shaders: Shaders,
  wg: Workgroup1D,
): ElementwiseKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'elementwise'), { WG_X: wg })
  const run = async (
    a: QTensor,
    b: Int32Array,
    e: number,
    fields: { op: Op; da?: number; db?: number; s?: number; scalar?: boolean },
  ) => {
    const n = a.data.length
    const [out] = await dispatch(device, pipeline, {
      params: [fields.op, n, fields.da ?? 0, fields.db ?? 0, fields.s ?? 0, Number(fields.scalar ?? false)],
      inputs: [a.data, b],
      outputs: [n],
      groups: grid1D(n, wg),
    })
    return qtensor(a.shape, e, out)
  }
  const none = new Int32Array(1)
  return {
    add(a, b, outExp) {
      assertShape(b, a.shape, 'add operand')
      const lo = Math.min(a.exp, b.exp)
      const e = outExp ?? Math.max(lo, expForMagnitude(Math.max(magnitude(a), magnitude(b)) + 1))
      const [da, db] = [a.exp - lo, b.exp - lo]
      if (Math.max(da, db) > MAX_ADD_GAP)
        throw new RangeError(`add: exponent gap ${Math.max(da, db)} beyond the kernel's ${MAX_ADD_GAP}`)
      return run(a, b.data, e, { op: Op.Add, da, db, s: e - lo })
    },
    mul(a, b, outExp) {
      const scalar = b.data.length === 1
      if (!scalar) assertShape(b, a.shape, 'mul operand')
      const e = outExp ?? expForMagnitude(magnitude(a) + magnitude(b))
      return run(a, b.data, e, { op: Op.Mul, s: e - a.exp - b.exp, scalar })
    },
    requantize(a, outExp) {
      return run(a, none, outExp, { op: Op.Requantize, s: outExp - a.exp })
    },
    narrow16(a) {
      const s = fitShift(maxAbs(a.data), I16_MAX)
      return run(a, none, a.exp + s, { op: Op.Requantize, s })
    },
    neg(a) {
      return run(a, none, a.exp, { op: Op.Neg })
    },
  }
}
