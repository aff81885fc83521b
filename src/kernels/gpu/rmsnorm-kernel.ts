/// <reference types="@webgpu/types" />
import { ceilLog2 } from '../ref/rounding.ts'
import { assertShape, qtensor, roundHalfEven, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

/** ε's exponent in the twin (src/kernels/ref/rmsnorm.ts): 1e-6 → 1099512. */
const EPS_EXP = -40

export interface RmsNormKernel {
  /** The twin's rmsNorm: same contract, same bits. */
  forward(x: QTensor, weight: QTensor, eps: number, outExp: number): Promise<QTensor>
}

/** Host for shaders/rmsnorm.wgsl (with shaders/fixed.wgsl): one invocation per row. */
export function createRmsNormKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): RmsNormKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'fixed', 'rmsnorm'), { WG_X: wg })
  return {
    async forward(x, weight, eps, outExp) {
      if (x.shape.length !== 2)
        throw new RangeError(`rmsNorm input must be [rows, D], got [${x.shape.join(', ')}]`)
      const [rows, d] = [x.shape[0]!, x.shape[1]!]
      assertShape(weight, [d], 'rmsNorm weight')
      if (!(eps > 0)) throw new RangeError(`RMSNorm ε must be positive, got ${eps}`)
      const epsInt = roundHalfEven(eps * 2 ** -EPS_EXP)
      if (epsInt >= 2 ** 53) throw new RangeError(`RMSNorm ε ${eps} too large`)
      const [epsHi, epsLo] = [Math.floor(epsInt / 2 ** 32), epsInt % 2 ** 32]
      const [out] = await dispatch(device, pipeline, {
        params: [rows, d, x.exp, epsHi, epsLo, Math.max(ceilLog2(d) - 1, 0), outExp, weight.exp],
        inputs: [x.data, weight.data],
        outputs: [rows * d],
        groups: grid1D(rows, wg),
      })
      return qtensor(x.shape, outExp, out)
    },
  }
}
