/// <reference types="@webgpu/types" />
import { planMatmul, type MatmulOperand, type MatmulOptions } from '../ref/matmul.ts'
import { qtensor, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, kernelSource, type Shaders } from './dispatch.ts'

export interface WorkgroupSize {
  readonly x: number
  readonly y: number
}

export interface MatmulKernel {
  /** Same contract and same bits as the TS twin's `matmul`. */
  run(a: MatmulOperand, b: MatmulOperand, options?: MatmulOptions): Promise<QTensor>
}

/**
 * Host for shaders/matmul.wgsl (sources passed in so a page can import them with Vite's ?raw and
 * Node can read them from disk). The workgroup size is a pipeline-overridable constant: it changes
 * the schedule, never the bits.
 */
export function createMatmulKernel(
  device: GPUDevice,
  shaders: Shaders,
  workgroup: WorkgroupSize,
): MatmulKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'matmul'), {
    WG_X: workgroup.x,
    WG_Y: workgroup.y,
  })
  return {
    async run(a, b, options = {}) {
      const plan = planMatmul(a, b, options)
      const params = [
        plan.m,
        plan.n,
        plan.k,
        plan.aRow,
        plan.aK,
        plan.bK,
        plan.bCol,
        Number(plan.aWide),
        Number(plan.bWide),
        plan.outExp,
      ]
      const [c] = await dispatch(device, pipeline, {
        params,
        inputs: [a.data, b.data, plan.aExps, plan.bExps],
        outputs: [plan.m * plan.n],
        groups: [Math.ceil(plan.m / workgroup.x), Math.ceil(plan.n / workgroup.y)],
      })
      return qtensor([plan.m, plan.n], plan.outExp, c)
    },
  }
}
