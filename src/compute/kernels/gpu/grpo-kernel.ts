/// <reference types="@webgpu/types" />
import { LOSS_EXP } from '../ref/cross-entropy.ts'
import { RATIO_EXP, grpoScalars, type GrpoLossInput, type GrpoLossOutput } from '../ref/grpo.ts'
import { qtensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

export interface GrpoKernel {
  /** The twin's grpoLoss (ε_low, the optional ε_high and KL penalty): same contract, same bits. */
  loss(input: GrpoLossInput): Promise<GrpoLossOutput>
}

/** Host for shaders/grpo.wgsl (with shaders/fixed.wgsl): the twin's bounds and exponents, one dispatch. */
export function createGrpoKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): GrpoKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'fixed', 'grpo'), { WG_X: wg })
  return {
    async loss(input) {
      const { logProbs, oldLogProbs, advantages, mask, refLogProbs } = input
      const t = logProbs.data.length
      const { count, lo, hi, eq, k, beta, pullShift } = grpoScalars(input)
      const [loss, grad, kl] = await dispatch(device, pipeline, {
        params: [
          t,
          count,
          logProbs.exp,
          lo,
          hi,
          eq - advantages.exp - RATIO_EXP,
          k,
          LOSS_EXP - eq,
          beta,
          pullShift,
        ],
        inputs: [
          logProbs.data,
          oldLogProbs.data,
          advantages.data,
          Int32Array.from(mask, (m) => (m ? 1 : 0)),
          // the shader reads the reference only when β > 0, which grpoScalars lets through only with one
          refLogProbs?.data ?? new Int32Array(0),
        ],
        outputs: [1, t, 1],
        groups: grid1D(Math.max(t, 1), wg),
      })
      return {
        loss: qtensor([1], LOSS_EXP, loss),
        dLogProbs: qtensor([t], eq - k, grad),
        kl: qtensor([1], LOSS_EXP, kl),
      }
    },
  }
}
