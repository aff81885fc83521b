// Picks the next token from f32 logits (the fast path: onnxruntime-web's logits, float maths). The
// reproducible sampler that training re-executes is src/compute/kernels/ref/sampling.ts; this one only has to
// be deterministic for one seed on one backend.
//
// Randomness: Philox4x32 (src/compute/kernels/ref/philox.ts), the project's counter-based generator. The draw
// for sample s at new-token index t is counter (t, s) under the request's seed, so each sample's
// draws are independent of the batch size and of the order rows are sampled in; a stateful generator
// such as SeededRandom would tie sample s's tokens to how many draws the other samples made.
import { drawU32 } from '../../compute/kernels/ref/philox.ts'
import type { SamplingOptions } from './solver-protocol.ts'

export type TokenSampling = Pick<SamplingOptions, 'temperature' | 'topK' | 'topP' | 'seed'>

/** Where one draw sits: the sample's row in the batch and the index of the token it picks (0 = first new token). */
export interface DrawPosition {
  readonly sample: number
  readonly token: number
}

/** Throws naming the field when sampling options cannot be used. */
export function validateSampling(options: TokenSampling): void {
  if (!(options.temperature >= 0) || !Number.isFinite(options.temperature))
    throw new RangeError(`sampling: temperature must be a finite number ≥ 0 (got ${options.temperature})`)
  if (!Number.isInteger(options.topK) || options.topK < 0)
    throw new RangeError(`sampling: topK must be an integer ≥ 0 (got ${options.topK})`)
  if (!(options.topP > 0 && options.topP <= 1))
    throw new RangeError(`sampling: topP must be in (0, 1] (got ${options.topP})`)
  if (!Number.isSafeInteger(options.seed) || options.seed < 0)
    throw new RangeError(`sampling: seed must be a non-negative safe integer (got ${options.seed})`)
}

/** Argmax; ties go to the lowest token id. */
export function argmax(logits: ArrayLike<number>): number {
  let best = 0
  for (let j = 1; j < logits.length; j++) if (logits[j]! > logits[best]!) best = j
  return best
}

/** A uniform draw in [0, 1) for one position under a seed (53-bit seeds split into two Philox key words). */
export function uniformDraw(seed: number, at: DrawPosition): number {
  const key = [seed >>> 0, Math.floor(seed / 2 ** 32) >>> 0] as const
  return drawU32({ seed: key, step: at.token, position: at.sample }) / 2 ** 32
}

/**
 * The candidates and their probabilities after temperature, top-k and top-p, most likely first (ties:
 * lower id first). Top-p applies to the softmax renormalised over the top-k survivors, as Hugging Face's
 * warpers chain them, and always keeps at least the most likely token.
 */
export function candidateDistribution(
  logits: ArrayLike<number>,
  options: Pick<TokenSampling, 'temperature' | 'topK' | 'topP'>,
): { ids: number[]; probs: number[] } {
  const v = logits.length
  let max = -Infinity
  for (let j = 0; j < v; j++) max = Math.max(max, logits[j]!)
  const weights = new Float64Array(v)
  let total = 0
  for (let j = 0; j < v; j++) total += weights[j] = Math.exp((logits[j]! - max) / options.temperature)
  const k = options.topK > 0 ? Math.min(options.topK, v) : v
  // A token below (1 − p)/V of the mass can never enter the nucleus (all such tokens together hold less
  // than 1 − p, so the tokens above the bar already reach p); skipping them before the sort keeps a
  // 150k vocabulary cheap. Without top-p (or with top-k, which cuts first) every token is a candidate.
  const bar = options.topP < 1 && k === v ? ((1 - options.topP) / v) * total : 0
  const ids: number[] = []
  for (let j = 0; j < v; j++) if (weights[j]! >= bar) ids.push(j)
  ids.sort((a, b) => weights[b]! - weights[a]! || a - b)
  ids.length = Math.min(ids.length, k)
  const keptMass = ids.reduce((sum, id) => sum + weights[id]!, 0)
  const probs: number[] = []
  let running = 0
  for (const id of ids) {
    const p = weights[id]! / keptMass
    probs.push(p)
    running += p
    if (running >= options.topP) break
  }
  ids.length = probs.length
  const mass = running
  return { ids, probs: probs.map((p) => p / mass) }
}

/** The next token for one row of logits: greedy at temperature 0, else a seeded draw from the candidates. */
export function sampleToken(logits: ArrayLike<number>, options: TokenSampling, at: DrawPosition): number {
  if (options.temperature === 0) return argmax(logits)
  const { ids, probs } = candidateDistribution(logits, options)
  const u = uniformDraw(options.seed, at)
  let running = 0
  for (let i = 0; i < ids.length; i++) {
    running += probs[i]!
    if (u < running) return ids[i]!
  }
  // u is below 1 but rounding can leave the summed probabilities a hair under it: the last candidate.
  return ids[ids.length - 1]!
}
