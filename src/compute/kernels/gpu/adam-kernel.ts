/// <reference types="@webgpu/types" />
import { oneMinusQ40, stepScalars, WEIGHT_EXP, type AdamConfig, type AdamState } from '../ref/adam.ts'
import { expForMagnitude, magnitude } from '../ref/elementwise.ts'
import { assertShape, qtensor, type QTensor } from '../ref/tensor.ts'
import { WIDE_ONE } from '../ref/wide-scalar.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

/**
 * Largest gap between √v's exponent and ε̂'s that the update's 128-bit denominator holds. With ε = 1e-8
 * (ε̂ at 2^-56 to 2^-61) reaching it takes gradients above 2^59 or below 2^-116: no real training run.
 */
export const MAX_DENOMINATOR_GAP = 90

export interface AdamKernel {
  /** The twin's adamStep: same contract, same bits. */
  step(
    w: QTensor,
    g: QTensor,
    state: AdamState,
    config: AdamConfig,
  ): Promise<{ w: QTensor; state: AdamState }>
}

/** A bigint below 2^64 as its (lo, hi) u32 words. */
function words64(x: bigint): [number, number] {
  return [Number(x & 0xffffffffn), Number(x >> 32n)]
}

/** Host for shaders/adam.wgsl: the twin's exponents and scalars, turned into the kernel's shifts. */
export function createAdamKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): AdamKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'adam'), { WG_X: wg })
  return {
    async step(w, g, state, config) {
      if (w.exp !== WEIGHT_EXP) throw new RangeError(`adamStep: master weights must be at 2^${WEIGHT_EXP}`)
      assertShape(g, w.shape, 'gradient')
      assertShape(state.m, w.shape, 'Adam m')
      assertShape(state.r, w.shape, 'Adam √v')
      const t = state.step + 1
      const { alpha, epsHat, decay } = stepScalars(config, t)
      const q40 = WIDE_ONE >> 22n
      const [c1, c2] = [oneMinusQ40(config.beta1), oneMinusQ40(config.beta2)]
      const { m, r } = state
      const mExp = expForMagnitude(Math.max(magnitude(m), magnitude(g)))
      const rExp = expForMagnitude(Math.max(magnitude(r), magnitude(g)))
      // the denominator r'·2^rExp + ε̂ at the finer of the two exponents (ε̂ = 0 adds nothing)
      const base = epsHat.m === 0 ? rExp : Math.min(rExp, epsHat.exp)
      const [denR, denEps] = [rExp - base, epsHat.m === 0 ? 0 : epsHat.exp - base]
      if (Math.max(denR, denEps) > MAX_DENOMINATOR_GAP)
        throw new RangeError(
          `Adam kernel: √v at 2^${rExp} and ε̂ at 2^${epsHat.exp} are ${Math.max(denR, denEps)} binary places apart, beyond ${MAX_DENOMINATOR_GAP}; rescale the gradients or run the step on the TS twin`,
        )
      const n = w.data.length
      const [w2, m2, r2] = await dispatch(device, pipeline, {
        params: [
          n,
          m.exp - mExp - 40,
          g.exp - mExp - 40,
          ...words64(q40 - c1),
          ...words64(c1),
          2 * (r.exp - rExp) - 38,
          2 * (g.exp - rExp) - 38,
          ...words64(q40 - c2),
          ...words64(c2),
          alpha.m,
          epsHat.m,
          denR,
          denEps,
          mExp + alpha.exp - WEIGHT_EXP - base,
          decay.m,
          -decay.exp,
        ],
        inputs: [w.data, g.data, m.data, r.data],
        outputs: [n, n, n],
        groups: grid1D(n, wg),
      })
      return {
        w: qtensor(w.shape, WEIGHT_EXP, w2),
        state: { step: t, m: qtensor(w.shape, mExp, m2), r: qtensor(w.shape, rExp, r2) },
      }
    },
  }
}
