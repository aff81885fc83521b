/// <reference types="@webgpu/types" />
import { expForMagnitude, magnitude } from '../ref/elementwise.ts'
import { XHAT_EXP, encodeEps, rmsNormBackwardShifts, type RmsNormGrads } from '../ref/rmsnorm.ts'
import { bitLength, ceilLog2 } from '../ref/rounding.ts'
import { assertShape, maxAbs, qtensor, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

export interface RmsNormKernel {
  /** The twin's rmsNorm: same contract, same bits. */
  forward(x: QTensor, weight: QTensor, eps: number, outExp: number): Promise<QTensor>
  /**
   * The twin's rmsNormBackward: same contract, same bits. Four dispatches (x̂ and the row norms;
   * dWeight and w; dx), the exponents chosen between them from whole-tensor maxima as the twin does.
   */
  backward(x: QTensor, weight: QTensor, eps: number, dy: QTensor): Promise<RmsNormGrads>
}

const enum Op {
  Forward = 0,
  Normalize = 1,
  DWeight = 2,
  Center = 3,
  Scale = 4,
}

/** Fields of shaders/rmsnorm.wgsl's Params after (op, rows, d, x_exp, ε hi, ε lo, c); unused ones are 0. */
interface OpShifts {
  readonly sOut?: number
  readonly sp?: number
  readonly sDw?: number
  readonly sV?: number
  readonly sc?: number
  readonly guard?: number
  readonly hw?: number
  readonly sDx?: number
}

function rowsOf(x: QTensor): [number, number] {
  if (x.shape.length !== 2)
    throw new RangeError(`rmsNorm input must be [rows, D], got [${x.shape.join(', ')}]`)
  return [x.shape[0]!, x.shape[1]!]
}

/** Host for shaders/rmsnorm.wgsl (with shaders/fixed.wgsl): one invocation per row, column or element. */
export function createRmsNormKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): RmsNormKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'fixed', 'rmsnorm'), { WG_X: wg })
  const none = new Int32Array(1)

  interface Pass {
    /** x (forward, normalize) or w (scale) */
    readonly x?: QTensor
    readonly weight?: QTensor
    readonly dy?: Int32Array
    readonly xhat?: Int32Array
    readonly norms?: Int32Array
    readonly eps?: number
    readonly shifts?: OpShifts
  }
  /** One dispatch of `op` over `count` invocations; returns `out` (and the row norms for Normalize). */
  const run = (op: Op, rows: number, d: number, count: number, outputs: number[], pass: Pass) => {
    const epsInt = pass.eps === undefined ? 0 : encodeEps(pass.eps)
    if (epsInt >= 2 ** 53) throw new RangeError(`RMSNorm ε ${pass.eps} is too large; use a value below 1`)
    const { sOut, sp, sDw, sV, sc, guard, hw, sDx } = pass.shifts ?? {}
    return dispatch(device, pipeline, {
      params: [
        op,
        rows,
        d,
        pass.x?.exp ?? 0,
        Math.floor(epsInt / 2 ** 32),
        epsInt % 2 ** 32,
        Math.max(ceilLog2(d) - 1, 0),
        ...[sOut, sp, sDw, sV, sc, guard, hw, sDx].map((v) => v ?? 0),
      ],
      inputs: [
        pass.x?.data ?? none,
        pass.weight?.data ?? none,
        pass.dy ?? none,
        pass.xhat ?? none,
        pass.norms ?? none,
      ],
      outputs: [...outputs, ...(outputs.length < 2 ? [1] : [])],
      groups: grid1D(count, wg),
    })
  }

  return {
    async forward(x, weight, eps, outExp) {
      const [rows, d] = rowsOf(x)
      assertShape(weight, [d], 'rmsNorm weight')
      const sOut = -XHAT_EXP + outExp - weight.exp
      const [out] = await run(Op.Forward, rows, d, rows, [rows * d], { x, weight, eps, shifts: { sOut } })
      return qtensor(x.shape, outExp, out)
    },

    async backward(x, weight, eps, dy) {
      const [rows, d] = rowsOf(x)
      assertShape(dy, x.shape, 'rmsNorm dy')
      assertShape(weight, [d], 'rmsNorm weight')
      const normalized = await run(Op.Normalize, rows, d, rows, [rows * d, 2 * rows], { x, eps })
      const [xhat, norms] = [normalized[0]!, normalized[1]!]
      const { sp, hw, guard, sc } = rmsNormBackwardShifts(rows, d)

      // the twin's exponents (src/compute/kernels/ref/rmsnorm.ts), from the maxima of x̂, dy, weight, w and r
      const xhatMag = bitLength(maxAbs(xhat)) + XHAT_EXP
      const dwExp = expForMagnitude(magnitude(dy) + xhatMag + ceilLog2(rows))
      const sDw = dwExp - (dy.exp + XHAT_EXP + sp)
      const ev = expForMagnitude(magnitude(dy) + magnitude(weight))
      const ew = ev + hw
      const [[dWeight], [w]] = await Promise.all([
        run(Op.DWeight, rows, d, d, [d], { dy: dy.data, xhat, shifts: { sp, sDw } }),
        run(Op.Center, rows, d, rows, [rows * d], {
          weight,
          dy: dy.data,
          xhat,
          shifts: { sV: ev - dy.exp - weight.exp, sc, guard, hw },
        }),
      ])
      let rMag = -Infinity
      for (let i = 0; i < rows; i++) rMag = Math.max(rMag, bitLength(norms[2 * i]!) + norms[2 * i + 1]!)
      const dxExp = expForMagnitude(bitLength(maxAbs(w!)) + ew + rMag)
      const [dx] = await run(Op.Scale, rows, d, rows * d, [rows * d], {
        x: qtensor(x.shape, ew, w),
        norms,
        shifts: { sDx: dxExp - ew },
      })
      return { dx: qtensor(x.shape, dxExp, dx), dWeight: qtensor([d], dwExp, dWeight) }
    },
  }
}
