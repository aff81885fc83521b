/// <reference types="@webgpu/types" />
import type { DrawKey } from '../ref/philox.ts'
import { checkTemperatureQ16, type SamplingParams } from '../ref/sampling.ts'
import { qtensor, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'
import { createSoftmaxKernel } from './softmax-kernel.ts'

export interface SamplingKernel {
  /** The twin's sampleToken on every row of logits [R, V], row i drawn at keys[i]: same bits. */
  sample(logits: QTensor, params: SamplingParams, keys: readonly DrawKey[]): Promise<Int32Array>
}

const enum Op {
  Greedy = 0,
  Scale = 1,
  Sample = 2,
}

/**
 * Host for shaders/sampling.wgsl: greedy rows read the logits; sampled rows are scaled by 1/T (the
 * twin's temperatureScaled), turned into Q30 probabilities by the softmax kernel (the twin's plain
 * softmax), then one invocation per row cuts and draws.
 */
export function createSamplingKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): SamplingKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'fixed', 'sampling'), { WG_X: wg })
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
      if (!greedy) checkTemperatureQ16(params.temperatureQ16)
      const k = params.topK > 0 ? Math.min(params.topK, v) : v
      const run = async (op: Op, x: Int32Array, scaledLength: number) =>
        dispatch(device, pipeline, {
          params: [op, rows, v, k, params.topPQ30, Math.max(params.temperatureQ16, 0)],
          inputs: [x, Int32Array.from(keys.flatMap((key) => [...key.seed, key.step, key.position]))],
          outputs: [rows, scaledLength],
          groups: grid1D(rows, wg),
        })
      if (greedy) return (await run(Op.Greedy, logits.data, 0))[0]!
      const [, scaled] = await run(Op.Scale, logits.data, rows * v)
      const p = await softmax.softmax(qtensor([rows, v], logits.exp, scaled))
      return (await run(Op.Sample, p.data, 0))[0]!
    },
  }
}
