import { mulHiLo32, drawU32, type DrawKey } from './philox.ts'
import { divRne } from './rounding.ts'
import { softmax } from './softmax.ts'
import { qtensor, type QTensor } from './tensor.ts'

export interface SamplingParams {
  /** Temperature in Q16 (1.0 = 65536); 0 means greedy. */
  readonly temperatureQ16: number
  /** Keep the k most probable tokens; 0 keeps all. */
  readonly topK: number
  /** Keep the smallest prefix whose probability reaches p, in Q30; 2^30 keeps all. */
  readonly topPQ30: number
}

/** Argmax; ties go to the lower token id. */
export function greedyToken(logits: QTensor): number {
  let best = 0
  for (let j = 1; j < logits.data.length; j++) if (logits.data[j]! > logits.data[best]!) best = j
  return best
}

/**
 * The sharpest temperature the sampler takes, in Q16 (T ≈ 0.7214): 1/T is folded into softmax's Q30
 * log2(e) constant, which must stay below 2^31; past it the constant would wrap and the draw would be
 * silently wrong, so sharper temperatures are refused instead.
 */
export const MIN_TEMPERATURE_Q16 = 47_275

/** 1/T as the Q30 multiplier folded into the softmax (T in Q16, ≥ MIN_TEMPERATURE_Q16). */
export function inverseTemperatureQ30(temperatureQ16: number): number {
  if (!(temperatureQ16 >= MIN_TEMPERATURE_Q16))
    throw new RangeError(
      `temperature ${(temperatureQ16 / 2 ** 16).toFixed(4)} is below the reproducible sampler's minimum ${(MIN_TEMPERATURE_Q16 / 2 ** 16).toFixed(4)} (use 0 for greedy)`,
    )
  return divRne(2 ** 30, temperatureQ16, 16)
}

/**
 * Draws one token from logits [V] in fixed point: softmax of logits/T (Q30), candidates ordered by
 * probability then token id, cut by top-k and top-p, then the Philox draw u picks the first
 * candidate whose running mass exceeds floor(u·mass/2^32).
 */
export function sampleToken(logits: QTensor, params: SamplingParams, key: DrawKey): number {
  if (params.temperatureQ16 <= 0) return greedyToken(logits)
  const v = logits.data.length
  const inverseT = inverseTemperatureQ30(params.temperatureQ16)
  const p = softmax(qtensor([1, v], logits.exp, logits.data), { scaleQ30: inverseT }).data
  const order = Array.from({ length: v }, (_, j) => j).sort((a, b) => p[b]! - p[a]! || a - b)
  const k = params.topK > 0 ? Math.min(params.topK, v) : v
  const kept: number[] = []
  let mass = 0
  for (const id of order.slice(0, k)) {
    kept.push(id)
    mass += p[id]!
    if (mass >= params.topPQ30) break
  }
  const [threshold] = mulHiLo32(drawU32(key), mass)
  let running = 0
  for (const id of kept) {
    running += p[id]!
    if (running > threshold) return id
  }
  return kept[kept.length - 1]! // unreachable: threshold < mass, so the loop returns
}
