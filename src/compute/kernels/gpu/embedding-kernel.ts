/// <reference types="@webgpu/types" />
import { expForMagnitude, magnitude } from '../ref/elementwise.ts'
import { ceilLog2 } from '../ref/rounding.ts'
import { qtensor, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

export interface EmbeddingKernel {
  /** The twin's embeddingGather and embeddingScatterAdd: same contracts, same bits. */
  gather(table: QTensor, ids: Int32Array): Promise<QTensor>
  scatterAdd(dOut: QTensor, ids: Int32Array, vocab: number): Promise<QTensor>
}

function checkIds(ids: Int32Array, vocab: number): void {
  for (const id of ids)
    if (id < 0 || id >= vocab) throw new RangeError(`token id ${id} outside vocabulary of ${vocab}`)
}

/** Host for shaders/embedding.wgsl. */
export function createEmbeddingKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): EmbeddingKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'embedding'), { WG_X: wg })
  const run = async (op: number, src: QTensor, ids: Int32Array, rows: number, s: number, e: number) => {
    const d = src.shape[1]!
    const n = rows * d
    const [out] = await dispatch(device, pipeline, {
      params: [op, n, d, ids.length, s],
      inputs: [src.data, ids],
      outputs: [n],
      groups: grid1D(n, wg),
    })
    return qtensor([rows, d], e, out)
  }
  return {
    gather(table, ids) {
      checkIds(ids, table.shape[0]!)
      return run(0, table, ids, ids.length, 0, table.exp)
    },
    scatterAdd(dOut, ids, vocab) {
      checkIds(ids, vocab)
      const e = Math.max(dOut.exp, expForMagnitude(magnitude(dOut) + ceilLog2(Math.max(ids.length, 1))))
      return run(1, dOut, ids, vocab, e - dOut.exp, e)
    },
  }
}
