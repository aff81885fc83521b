/// <reference types="@webgpu/types" />
import { LOG2E_Q30 } from '../ref/exp.ts'
import { swigluBackwardExps, type SwigluGrads } from '../ref/silu.ts'
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
  /**
   * The twin's swigluBackward: same contract, same bits. Three dispatches: silu(gate) for its maximum
   * (dUp's exponent), then dUp (the swiglu op with dy for up) and dGate.
   */
  swigluBackward(gate: QTensor, up: QTensor, dy: QTensor): Promise<SwigluGrads>
}

const enum Op {
  Exp = 0,
  Sigmoid = 1,
  Silu = 2,
  Swiglu = 3,
  SwigluDGate = 4,
}

/** Host for shaders/nonlinear.wgsl (with shaders/fixed.wgsl). */
export function createNonlinearKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): NonlinearKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'fixed', 'nonlinear'), { WG_X: wg })
  const none = new Int32Array(1)
  interface Extra {
    readonly up?: Int32Array
    readonly dy?: Int32Array
    readonly log2e?: number
    readonly shift?: number
    readonly shift2?: number
  }
  const run = async (op: Op, x: QTensor, outExp: number, extra: Extra = {}) => {
    const n = x.data.length
    const [out] = await dispatch(device, pipeline, {
      params: [op, n, x.exp, outExp, extra.log2e ?? LOG2E_Q30, extra.shift ?? 0, extra.shift2 ?? 0],
      inputs: [x.data, extra.up ?? none, extra.dy ?? none],
      outputs: [n],
      groups: grid1D(n, wg),
    })
    return qtensor(x.shape, outExp, out)
  }
  const swiglu = (gate: QTensor, up: QTensor, outExp: number) => {
    assertShape(up, gate.shape, 'swiglu up')
    return run(Op.Swiglu, gate, outExp, { up: up.data, shift: outExp - gate.exp - up.exp })
  }
  return {
    exp: (x, outExp, log2e) => run(Op.Exp, x, outExp, { log2e }),
    sigmoid: (x) => run(Op.Sigmoid, x, -30),
    silu: (x) => run(Op.Silu, x, x.exp),
    swiglu,
    async swigluBackward(gate, up, dy) {
      assertShape(up, gate.shape, 'swiglu up')
      assertShape(dy, gate.shape, 'swiglu dy')
      const s = await run(Op.Silu, gate, gate.exp)
      const { upExp, tExp, gateExp } = swigluBackwardExps(s, up, dy)
      // dUp = dy ⊙ silu(gate): the swiglu op's product, exact whichever operand is called up
      const [dUp, dGate] = await Promise.all([
        swiglu(gate, dy, upExp),
        run(Op.SwigluDGate, gate, gateExp, {
          up: up.data,
          dy: dy.data,
          shift: tExp - dy.exp - up.exp,
          shift2: 30 + gateExp - tExp,
        }),
      ])
      return { dGate, dUp }
    },
  }
}
