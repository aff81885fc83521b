import { mulHiLo32, drawU32, type DrawKey } from './philox.ts'
import { divRne, sat32 } from './rounding.ts'
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
  const out = qtensor(logits.shape, logits.exp)
  // at T = 1 the division by 2^16 of a gap times 2^16 is the gap, saturated as divRne saturates
  const one = temperatureQ16 === TEMPERATURE_ONE_Q16
  for (let j = 0; j < out.data.length; j++) {
    const gap = logits.data[j]! - max
    out.data[j] = one ? sat32(gap) : divRne(gap, temperatureQ16, 16)
  }
  return out
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
  const span = keySpan(v)
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
  const u = drawU32(key)
  return params.topK > 0
    ? drawSorted(p, Math.min(params.topK, v), params.topPQ30, u)
    : drawLazily(p, params.topPQ30, u)
}

/** The draw as its definition reads: every candidate in order, the cut, then the walk. */
function drawSorted(p: Int32Array, k: number, topP: number, u: number): number {
  const order = candidateOrder(p)
  const kept: number[] = []
  let mass = 0
  for (let c = 0; c < k; c++) {
    const id = order[c]!
    kept.push(id)
    mass += p[id]!
    if (mass >= topP) break
  }
  const [threshold] = mulHiLo32(u, mass)
  let running = 0
  for (const id of kept) {
    running += p[id]!
    if (running > threshold) return id
  }
  return kept[kept.length - 1]! // unreachable: threshold < mass, so the loop returns
}

/**
 * drawSorted without top-k (the swarm's default), with no full sort: a decode step draws a token per
 * row, and sorting the vocabulary was a tenth of the sampler's time. Both walks of the definition stop
 * where a running sum first passes a bound, so each is one selection (`crossing`, expected linear):
 * the cut keeps all but the smallest candidates whose sum stays within total − topP, and the draw
 * picks the candidate, largest first, at which the running mass passes the threshold. Candidates of
 * probability 0 are left out of both: the cut always drops them and the walk never stops at one. The
 * order is candidateOrder's (the same keys), so the token is the same.
 */
function drawLazily(p: Int32Array, topP: number, u: number): number {
  const v = p.length
  const span = keySpan(v)
  // the positive candidates' keys, and their negations (smallest first)
  const [keys, negated] = [new Float64Array(v), new Float64Array(v)]
  let [n, total, top] = [0, 0, 0]
  for (let j = 0; j < v; j++)
    if (p[j]! > 0) {
      keys[n] = p[j]! * span + (span - 1 - j)
      negated[n++] = -keys[n - 1]!
      total += p[j]!
      top = Math.max(top, p[j]!)
    }
  let mass = total
  if (total >= topP) {
    // the smallest kept candidate is where the smallest-first sum passes total − topP; with topP ≤ 0
    // it never does, and the definition keeps the first candidate alone
    const smallestKept = crossing(negated.subarray(0, n), span, total - topP)
    mass = smallestKept ? total - smallestKept.before : top
  }
  const [threshold] = mulHiLo32(u, mass)
  const { key } = crossing(keys.subarray(0, n), span, threshold)! // threshold < mass ≤ total
  return span - 1 - (key % span)
}

/** 2^⌈log2 v⌉: a key p·span + (span − 1 − id) orders by probability, then by the lower id. */
function keySpan(v: number): number {
  if (v > MAX_SAMPLED_VOCAB) throw new RangeError(`sampling: ${v} tokens exceed ${MAX_SAMPLED_VOCAB}`)
  return 2 ** Math.max(0, Math.ceil(Math.log2(v)))
}

/**
 * Of distinct keys taken largest first, each weighing ⌊|key|/span⌋: the first at which the running
 * weight passes `target`, and the weight before it; undefined where the total never does. A
 * quickselect (the keys are reordered): each round splits the range at a pivot and goes on in the
 * side that holds the crossing. Written here because no library selects by a running sum.
 */
function crossing(
  keys: Float64Array,
  span: number,
  target: number,
): { key: number; before: number } | undefined {
  const weight = (key: number): number => Math.floor(Math.abs(key) / span)
  let [lo, hi, before] = [0, keys.length, 0]
  while (lo < hi) {
    const pivot = keys[(lo + hi) >> 1]!
    // [lo, mid) above the pivot, then the pivot at mid, then the rest below it
    let mid = lo
    let above = 0
    for (let k = lo; k < hi; k++)
      if (keys[k]! > pivot) {
        above += weight(keys[k]!)
        const key = keys[k]!
        keys[k] = keys[mid]!
        keys[mid++] = key
      }
    if (before + above > target) {
      hi = mid
      continue
    }
    if (before + above + weight(pivot) > target) return { key: pivot, before: before + above }
    before += above + weight(pivot)
    const at = keys.indexOf(pivot, mid)
    keys[at] = keys[mid]!
    keys[mid] = pivot
    lo = mid + 1
  }
  return undefined
}
