import { WEIGHT_EXP } from '../kernels/ref/adam.ts'
import { mulHiLo32, philox4x32 } from '../kernels/ref/philox.ts'
import { qtensor, type QTensor } from '../kernels/ref/tensor.ts'
import { isqrt, wideFromFloat } from '../kernels/ref/wide-scalar.ts'
import { validateConfig, type ModelConfig } from './config.ts'
import { parameterLayout, type ParamSpec } from './layout.ts'

/** Parameters by name, in layout order; all master weights are i32 at 2^-24. */
export type Params = Map<string, QTensor>

/** Standard deviation of embedding and linear weights at init (GPT-2/Qwen2 use 0.02). */
export const INIT_STD = 0.02

export function param(params: Params, name: string): QTensor {
  const t = params.get(name)
  if (!t) throw new RangeError(`missing parameter ${name}`)
  return t
}

/** round(√3·std·2^24) with integer arithmetic only (Math.sqrt is not guaranteed bit-identical everywhere). */
function uniformRange(std: number): number {
  const x = wideFromFloat(std * 2 ** -WEIGHT_EXP)
  return Number((isqrt(3n * x * x) + (1n << 61n)) >> 62n)
}

/**
 * Deterministic init from a 64-bit seed (two u32 words): norm weights 1, every other weight uniform
 * on the integers [−R, R] with R = round(√3·std·2^24) (variance std²). Element i of parameter p is
 * Philox draw (p, i, 0, 0): any element can be recomputed alone, on any thread.
 */
export function initParams(config: ModelConfig, seed: readonly [number, number]): Params {
  validateConfig(config)
  const range = uniformRange(INIT_STD)
  const params: Params = new Map()
  parameterLayout(config).forEach((spec: ParamSpec, p) => {
    const t = qtensor(spec.shape, WEIGHT_EXP)
    if (spec.kind === 'norm') t.data.fill(2 ** -WEIGHT_EXP)
    else
      for (let i = 0; i < t.data.length; i++) {
        const u = philox4x32([p, i, 0, 0], [seed[0], seed[1]])[0]
        t.data[i] = mulHiLo32(u, 2 * range + 1)[0] - range
      }
    params.set(spec.name, t)
  })
  return params
}
