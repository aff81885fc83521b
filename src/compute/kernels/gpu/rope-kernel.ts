/// <reference types="@webgpu/types" />
import type { RopeTable } from '../ref/rope-table.ts'
import { qtensor, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

export interface RopeKernel {
  /** The twin's rope (and its inverse, the backward pass): same contract, same bits. */
  rope(x: QTensor, positions: Int32Array, table: RopeTable, inverse?: boolean): Promise<QTensor>
}

/** Host for shaders/rope.wgsl: one invocation per rotated pair; the table is uploaded as it is. */
export function createRopeKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): RopeKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'rope'), { WG_X: wg })
  return {
    async rope(x, positions, table, inverse = false) {
      const d = table.headDim
      const [t, width] = [x.shape[0]!, x.shape[1]!]
      if (x.shape.length !== 2 || width % d !== 0 || positions.length !== t)
        throw new RangeError(`rope: x [${x.shape.join(', ')}] must be [T, heads·${d}] with T positions`)
      for (const pos of positions)
        if (pos < 0 || pos >= table.maxSeq)
          throw new RangeError(`rope: position ${pos} outside table of ${table.maxSeq}`)
      const pairs = (t * width) / 2
      const [out] = await dispatch(device, pipeline, {
        params: [pairs, width, d / 2, Number(inverse)],
        inputs: [x.data, positions, table.cos, table.sin],
        outputs: [t * width],
        groups: grid1D(pairs, wg),
      })
      return qtensor(x.shape, x.exp, out)
    },
  }
}
