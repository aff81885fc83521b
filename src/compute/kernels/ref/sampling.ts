import { mulHiLo32, drawU32, type DrawKey } from './philox.ts'
import { divRne } from './rounding.ts'
import { softmax } from './softmax.ts'
import { qtensor, type QTensor } from './tensor.ts'

export interface SamplingParams {
  /** Temperature in Q16 (1.0 = 65536), an integer in (0, MAX_TEMPERATURE_Q16]; 0 (or less) means greedy. */
  readonly temperatureQ16: number
  /** Keep the k most probable tokens; 0 keeps all. */
  readonly topK: number
  /** Keep the smallest prefix whose probability reaches p, in Q30; 2^30 keeps all. */
  readonly topPQ30: number
}

/** Q16 scale of temperatures: 1.0 = 2^16, so the sharpest temperature is 2^-16. */
const TEMPERATURE_ONE_Q16 = 2 ** 16

/**
 * The flattest temperature the sampler takes (T = 16, in Q16). Nothing would overflow above it; a larger
 * value is far more likely a unit mistake (Q16 applied twice, a percentage) than a wish: at T = 16
 * a logit lead of 10 already weighs only e^0.6 ≈ 1.9 times more.
 */
export const MAX_TEMPERATURE_Q16 = 16 * TEMPERATURE_ONE_Q16

/** Argmax; ties go to the lower token id. */
export function greedyToken(logits: QTensor): number {
  let best = 0
  for (let j = 1; j < logits.data.length; j++) if (logits.data[j]! > logits.data[best]!) best = j
  return best
}

/**
 * Refuses a temperature the softmax cannot be scaled by: one that is not a whole number of Q16 units
 * in (0, MAX_TEMPERATURE_Q16]. Callers treat T ≤ 0 as greedy before they get here.
 */
export function checkTemperatureQ16(temperatureQ16: number): void {
  if (!Number.isInteger(temperatureQ16) || temperatureQ16 <= 0)
    throw new RangeError(
      `temperature ${temperatureQ16} (Q16) is not a whole number of Q16 units above 0: pass round(T·65536) (1.0 = 65536), or 0 for greedy`,
    )
  if (temperatureQ16 > MAX_TEMPERATURE_Q16)
    throw new RangeError(
      `temperature ${(temperatureQ16 / TEMPERATURE_ONE_Q16).toFixed(4)} is above the reproducible sampler's maximum ${MAX_TEMPERATURE_Q16 / TEMPERATURE_ONE_Q16}: temperatures are Q16 (1.0 = 65536); use a value in (0, 16], or 0 for greedy`,
    )
}

/**
 * Logits [v] divided by the temperature, as the softmax's input: y_j = RNE((x_j − max)·2^16 / T_Q16)
 * at the logits' exponent, one round-half-even long division (divRne; the gap max − x_j < 2^32).
 * Softmax is shift-invariant, so measuring from the row's top logit changes no probability, and
 * it keeps the tokens that matter (near the top) clear of saturation at any T: only gaps beyond
 * 2^31 − 1 units saturate, and those tokens have probability 0 for logits at exponent ≥ −26 (the
 * model's are at −16). At T = 1 y_j = x_j − max, the very differences the softmax of the unscaled
 * logits takes: the same probabilities, bit for bit.
 */
export function temperatureScaled(logits: QTensor, temperatureQ16: number): QTensor {
  checkTemperatureQ16(temperatureQ16)
  let max = -Infinity
  for (const x of logits.data) max = Math.max(max, x)
  return qtensor(
    logits.shape,
    logits.exp,
    logits.data.map((x) => divRne(x - max, temperatureQ16, 16)),
  )
}

/** Vocabularies up to 2^23 tokens: a Q30 probability and a token id then share one exact double. */
const MAX_SAMPLED_VOCAB = 2 ** 23

/**
 * Token ids by probability, highest first, ties to the lower id. Sorted as one typed array of keys
 * p·2^b + (2^b − 1 − id) (exact below 2^53), natively and without a comparator: a decode step draws
 * one token per row, and a comparator sort of the vocabulary cost as much as the row's forward.
 */
export function candidateOrder(p: Int32Array): Int32Array {
  const v = p.length
  if (v > MAX_SAMPLED_VOCAB) throw new RangeError(`sampling: ${v} tokens exceed ${MAX_SAMPLED_VOCAB}`)
  const span = 2 ** Math.max(0, Math.ceil(Math.log2(v)))
  const keys = new Float64Array(v)
  for (let j = 0; j < v; j++) keys[j] = p[j]! * span + (span - 1 - j)
  keys.sort()
  const order = new Int32Array(v)
  for (let c = 0; c < v; c++) order[c] = span - 1 - (keys[v - 1 - c]! % span)
  return order
}

/**
 * Draws one token from logits [v] in fixed point: softmax of the temperature-scaled logits (Q30),
 * candidates ordered by probability then token id, cut by top-k and top-p, then the Philox draw u
 * picks the first candidate whose running mass exceeds floor(u·mass/2^32).
 */
export function sampleToken(logits: QTensor, params: SamplingParams, key: DrawKey): number {
  if (params.temperatureQ16 <= 0) return greedyToken(logits)
  const v = logits.data.length
  const scaled = temperatureScaled(logits, params.temperatureQ16)
  const p = softmax(qtensor([1, v], scaled.exp, scaled.data)).data
  const order = candidateOrder(p)
  const k = params.topK > 0 ? Math.min(params.topK, v) : v
  const kept: number[] = []
  let mass = 0
  for (let c = 0; c < k; c++) {
    const id = order[c]!
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
