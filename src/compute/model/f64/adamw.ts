// AdamW on flat float64 arrays with global gradient-norm clipping, in one fixed loop order.
import type { ParamSpec } from '../layout.ts'

export interface AdamWSettings {
  readonly beta1: number
  readonly beta2: number
  readonly eps: number
  readonly weightDecay: number
  /** Gradients are scaled down so their global L2 norm is at most this. */
  readonly clipNorm: number
}

export interface AdamWState {
  step: number
  readonly m: Float64Array
  readonly v: Float64Array
  /** 1 where weight decay applies (embeddings and linear weights), 0 for norm gains. */
  readonly decay: Uint8Array
}

export function adamWState(specs: readonly ParamSpec[]): AdamWState {
  const sizes = specs.map((s) => s.shape.reduce((a, b) => a * b, 1))
  const total = sizes.reduce((a, b) => a + b, 0)
  const decay = new Uint8Array(total)
  let offset = 0
  specs.forEach((spec, i) => {
    if (spec.kind !== 'norm') decay.fill(1, offset, offset + sizes[i]!)
    offset += sizes[i]!
  })
  return { step: 0, m: new Float64Array(total), v: new Float64Array(total), decay }
}

/** Clips `grads` in place to the global norm limit; returns the norm before clipping. */
export function clipGlobalNorm(grads: Float64Array, maxNorm: number): number {
  let ss = 0
  for (let i = 0; i < grads.length; i++) ss += grads[i]! * grads[i]!
  const norm = Math.sqrt(ss)
  if (norm > maxNorm) {
    const k = maxNorm / norm
    for (let i = 0; i < grads.length; i++) grads[i] = grads[i]! * k
  }
  return norm
}

/** One AdamW update at learning rate `lr` (decoupled weight decay, bias-corrected moments). */
export function adamWStep(
  params: Float64Array,
  grads: Float64Array,
  state: AdamWState,
  settings: AdamWSettings,
  lr: number,
): void {
  const { beta1, beta2, eps, weightDecay } = settings
  state.step++
  const c1 = 1 - beta1 ** state.step
  const c2 = 1 - beta2 ** state.step
  const { m, v, decay } = state
  for (let i = 0; i < params.length; i++) {
    const g = grads[i]!
    m[i] = beta1 * m[i]! + (1 - beta1) * g
    v[i] = beta2 * v[i]! + (1 - beta2) * g * g
    const update = m[i]! / c1 / (Math.sqrt(v[i]! / c2) + eps)
    params[i] = params[i]! - lr * (update + (decay[i] ? weightDecay * params[i]! : 0))
  }
}
