/// <reference types="@webgpu/types" />
import { LOG2E_Q30 } from '../ref/exp.ts'
import { assertShape, qtensor, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

export interface NonlinearKernel {
  /** expFixed of every element (the twin's scalar op, elementwise): e^(x·2^x.exp) at outExp. */
  exp(x: QTensor, outExp: number, log2eQ30?: number): Promise<QTensor>
  /** sigmoidQ30 of every element, at 2^-30. */
  sigmoid(x: QTensor): Promise<QTensor>
  /** The twin's silu and swiglu: same contracts, same bits. */
  silu(x: QTensor): Promise<QTensor>
  swiglu(gate: QTensor, up: QTensor, outExp: number): Promise<QTensor>
}

/** Host for shaders/nonlinear.wgsl (with shaders/fixed.wgsl). */
export function createNonlinearKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): NonlinearKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'fixed', 'nonlinear'), { WG_X: wg })
  const none = new Int32Array(1)
  const run = async (
    op: number,
    x: QTensor,
    up: Int32Array,
    outExp: number,
    log2e = LOG2E_Q30,
    shift = 0,
  ) => {
    const n = x.data.length
    const [out] = await dispatch(device, pipeline, {
      params: [op, n, x.exp, outExp, log2e, shift],
      inputs: [x.data, up],
      outputs: [n],
      groups: grid1D(n, wg),
    })
    return qtensor(x.shape, outExp, out)
  }
  return {
    exp: (x, outExp, log2eQ30) => run(0, x, none, outExp, log2eQ30),
    sigmoid: (x) => run(1, x, none, -30),
    silu: (x) => run(2, x, none, x.exp),
    swiglu(gate, up, outExp) {
      assertShape(up, gate.shape, 'swiglu up')
      return run(3, gate, up.data, outExp, LOG2E_Q30, outExp - gate.exp - up.exp)
    },
  }
}
