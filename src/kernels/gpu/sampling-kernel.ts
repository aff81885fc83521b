/// <reference types="@webgpu/types" />
import type { DrawKey } from '../ref/philox.ts'
import { inverseTemperatureQ30, type SamplingParams } from '../ref/sampling.ts'
import type { QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'
import { createSoftmaxKernel } from './softmax-kernel.ts'

export interface SamplingKernel {
  /** The twin's sampleToken on every row of logits [R, V], row i drawn at keys[i]: same bits. */
  sample(logits: QTensor, params: SamplingParams, keys: readonly DrawKey[]): Promise<Int32Array>
}

const enum Op {
  Greedy = 0,
  Sample = 1,
}

/**
 * Host for shaders/sampling.wgsl: greedy rows read the logits; sampled rows read the softmax kernel's
 * Q30 probabilities at 1/T (the twin's softmax with the same folded scale), then one invocation per row
 * orders, cuts and draws.
 */
export function createSamplingKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): SamplingKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'sampling'), { WG_X: wg })
  const softmax = createSoftmaxKernel(device, shaders, wg)
  return {
    async sample(logits, params, keys) {
      if (logits.shape.length !== 2)
        throw new RangeError(`sampling needs logits [rows, vocab], got [${logits.shape.join(', ')}]`)
      const [rows, v] = [logits.shape[0]!, logits.shape[1]!]
      if (v === 0) throw new RangeError('sampling needs a vocabulary of at least one token')
      if (keys.length !== rows) throw new RangeError(`sampling got ${keys.length} draw keys for ${rows} rows`)
      if (!(params.topPQ30 >= 0 && params.topPQ30 < 2 ** 32))
        throw new RangeError(`top-p ${params.topPQ30} (Q30) must be in [0, 2^32)`)
      const greedy = params.temperatureQ16 <= 0
      const x = greedy
        ? logits.data
        : (await softmax.softmax(logits, { scaleQ30: inverseTemperatureQ30(params.temperatureQ16) })).data
      const k = params.topK > 0 ? Math.min(params.topK, v) : v
      const [tokens] = await dispatch(device, pipeline, {
        params: [greedy ? Op.Greedy : Op.Sample, rows, v, k, params.topPQ30],
        inputs: [x, Int32Array.from(keys.flatMap((key) => [...key.seed, key.step, key.position]))],
        outputs: [rows, rows * v],
        groups: grid1D(rows, wg),
      })
      return tokens!
    },
  }
}
