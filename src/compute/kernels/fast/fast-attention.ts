/// <reference types="@webgpu/types" />
import type { AttentionShape } from '../ref/attention.ts'
import { createPipeline, grid1D } from '../gpu/dispatch.ts'
import type { FastShaders } from './fast-shaders.ts'
import { bindOp, type ResidentOp } from './resident.ts'

export interface FastAttention {
  /**
   * Causal GQA forward softmax(q·kᵀ/√d)·v per sequence and head, in the twin's layout: q and out
   * [B·S, H·d], k and v [B·S, KV·d], f32 buffers already on the device. Every position is a query
   * (the training forward; no KV-cached query windows).
   */
  bind(q: GPUBuffer, k: GPUBuffer, v: GPUBuffer, out: GPUBuffer, shape: AttentionShape): ResidentOp
}

/** Keys per chunk in shaders/fast/attention.wgsl (its workgroup size); the head dimension must divide it. */
const CHUNK = 64

/** Host for shaders/fast/attention.wgsl (after shaders/fast/reduce.wgsl): one workgroup per (row, head). */
export function createFastAttention(device: GPUDevice, shaders: FastShaders): FastAttention {
  const pipeline = createPipeline(device, `${shaders.reduce}\n${shaders.attention}`, {})
  return {
    bind(q, k, v, out, shape) {
      const { batch, seqLen, heads, kvHeads, headDim } = shape
      if (heads % kvHeads !== 0)
        throw new RangeError(`fast attention: ${heads} heads do not group into ${kvHeads} kv heads`)
      if (CHUNK % headDim !== 0)
        throw new RangeError(`fast attention: head dimension ${headDim} must divide ${CHUNK}`)
      if ((shape.queryLen ?? seqLen) !== seqLen)
        throw new RangeError('fast attention: every position must be a query (no KV-cached windows)')
      const rows = batch * seqLen
      const params = [rows, seqLen, heads, heads / kvHeads, headDim]
      return bindOp(device, pipeline, params, [q, k, v, out], grid1D(rows * heads, 1))
    },
  }
}
