/// <reference types="@webgpu/types" />
import { clipScale, type ClipResult } from '../ref/clip.ts'
import { qtensor } from '../ref/tensor.ts'
import type { QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'
import { createElementwiseKernel } from './elementwise-kernel.ts'

/**
 * Elements per chunk of the first reduction level: a fixed constant, so the order of the partial sums
 * depends on the tensors' shapes only (never on the device or the workgroup size).
 */
export const CLIP_CHUNK = 256

export interface ClipKernel {
  /** The twin's clipGradNorm: same contract, same bits (the same norm bigint too). */
  clipGradNorm(grads: readonly QTensor[], maxNorm: number): Promise<ClipResult>
}

const enum Op {
  Chunks = 0,
  Tensors = 1,
}

/** A magnitude's four little-endian u32 words (as read back in an Int32Array) as a bigint. */
function u128(words: Int32Array, at: number): bigint {
  let v = 0n
  for (let w = 3; w >= 0; w--) v = (v << 32n) | BigInt(words[at + w]! >>> 0)
  return v
}

/**
 * Host for shaders/clip.wgsl. The reduction order: each tensor (in the given order) is cut into chunks
 * of CLIP_CHUNK consecutive elements; the GPU sums each chunk in index order, then each tensor's chunk
 * sums in chunk order; the host adds the tensors' exact sums shifted to the finest exponent, in tensor
 * order, then derives the norm and factor with the twin's clipScale. The scale itself is the
 * elementwise kernel's multiply by the Q30 factor (sat32(mulRne(v, factor, 30)), the twin's formula).
 */
export function createClipKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): ClipKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'clip'), { WG_X: wg })
  const elementwise = createElementwiseKernel(device, shaders, wg)
  return {
    async clipGradNorm(grads, maxNorm) {
      if (grads.length === 0) throw new RangeError('clipGradNorm: no gradient tensors to clip')
      const values = new Int32Array(grads.reduce((n, g) => n + g.data.length, 0))
      const chunks: number[] = []
      const tensorChunks: number[] = []
      let offset = 0
      for (const g of grads) {
        values.set(g.data, offset)
        tensorChunks.push(chunks.length / 2)
        for (let start = 0; start < g.data.length; start += CLIP_CHUNK)
          chunks.push(offset + start, offset + Math.min(start + CLIP_CHUNK, g.data.length))
        tensorChunks.push(chunks.length / 2)
        offset += g.data.length
      }
      const chunkCount = chunks.length / 2
      const [chunkSums] = await dispatch(device, pipeline, {
        params: [Op.Chunks, chunkCount],
        inputs: [values, Int32Array.from(chunks)],
        outputs: [4 * chunkCount],
        groups: grid1D(chunkCount, wg),
      })
      const [tensorSums] = await dispatch(device, pipeline, {
        params: [Op.Tensors, grads.length],
        inputs: [chunkSums!, Int32Array.from(tensorChunks)],
        outputs: [4 * grads.length],
        groups: grid1D(grads.length, wg),
      })
      const base = Math.min(...grads.map((g) => g.exp))
      const sq = grads.reduce((s, g, t) => s + (u128(tensorSums!, 4 * t) << BigInt(2 * (g.exp - base))), 0n)
      const { norm, factor } = clipScale(sq, base, maxNorm)
      if (factor === null) return { grads: [...grads], norm }
      const scale = qtensor([1], -30, Int32Array.of(factor))
      return { grads: await Promise.all(grads.map((g) => elementwise.mul(g, scale, g.exp))), norm }
    },
  }
}
