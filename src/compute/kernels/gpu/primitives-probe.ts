/// <reference types="@webgpu/types" />
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

/** Which helper e2e/kernels-page/primitives.wgsl calls. */
export const enum Probe {
  DivRne = 0,
  Ln = 1,
  Rsqrt = 2,
  Exp = 3,
}

export interface PrimitivesProbe {
  /** One helper on every (a, b) pair (b is the high word of a 64-bit argument, or the divisor). */
  run(op: Probe, a: Int32Array, b: Int32Array, s: number, outExp: number): Promise<Int32Array>
}

/** Host of the test-only probe shader (its source comes from the test page, not from shaders/). */
export function createPrimitivesProbe(
  device: GPUDevice,
  shaders: Shaders,
  probe: string,
  wg: Workgroup1D,
): PrimitivesProbe {
  const pipeline = createPipeline(device, `${kernelSource(shaders, 'wide', 'fixed')}\n${probe}`, { WG_X: wg })
  return {
    async run(op, a, b, s, outExp) {
      const [out] = await dispatch(device, pipeline, {
        params: [op, a.length, s, outExp],
        inputs: [a, b],
        outputs: [a.length],
        groups: grid1D(a.length, wg),
      })
      return out!
    },
  }
}
