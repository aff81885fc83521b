import { WEIGHT_EXP } from '../../kernels/ref/adam.ts'
import { fromFloat, toFloat } from '../../kernels/ref/tensor.ts'
import { validateConfig, type ModelConfig } from '../config.ts'
import { parameterLayout, type ParamSpec } from '../layout.ts'
import type { Params } from '../params.ts'

/**
 * All parameters of a model in one Float64Array, in layout order, with a named view of each. One flat
 * array makes the optimizer, gradient clipping and hashing single loops in a fixed order; the views
 * are what forwardF64 and the ONNX exporter read.
 */
export interface FlatParams {
  readonly config: ModelConfig
  readonly specs: readonly ParamSpec[]
  readonly data: Float64Array
  readonly views: ReadonlyMap<string, Float64Array>
}

function size(spec: ParamSpec): number {
  return spec.shape.reduce((a, b) => a * b, 1)
}

/** Named subarrays of `data` (parameters, or gradients laid out the same way). */
export function flatViews(specs: readonly ParamSpec[], data: Float64Array): Map<string, Float64Array> {
  const views = new Map<string, Float64Array>()
  let offset = 0
  for (const spec of specs) {
    views.set(spec.name, data.subarray(offset, offset + size(spec)))
    offset += size(spec)
  }
  return views
}

export function parameterCount(config: ModelConfig): number {
  return parameterLayout(config).reduce((n, spec) => n + size(spec), 0)
}

/** Zeroed parameters (or a gradient buffer) for `config`. */
export function zeroFlatParams(config: ModelConfig): FlatParams {
  const specs = parameterLayout(validateConfig(config))
  const data = new Float64Array(parameterCount(config))
  return { config, specs, data, views: flatViews(specs, data) }
}

/** The exact float values of integer master weights. */
export function flatFromParams(config: ModelConfig, params: Params): FlatParams {
  const flat = zeroFlatParams(config)
  for (const spec of flat.specs) {
    const t = params.get(spec.name)
    if (!t || t.data.length !== size(spec))
      throw new RangeError(`parameter ${spec.name} missing or misshapen`)
    flat.views.get(spec.name)!.set(toFloat(t))
  }
  return flat
}

/** Rounds every weight half-even to the checkpoint's i32·2^WEIGHT_EXP grid (saturating). */
export function roundToParams(flat: FlatParams): Params {
  const params: Params = new Map()
  for (const spec of flat.specs)
    params.set(spec.name, fromFloat(spec.shape, WEIGHT_EXP, flat.views.get(spec.name)!))
  return params
}
