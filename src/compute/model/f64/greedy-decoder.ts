// Greedy generation with the float64 model and a key/value cache: the prompt runs as one block, then
// one token per step. Each step computes exactly what a full forward would at that position.
import { headDim, type ModelConfig } from '../config.ts'
import { ropeAngles, type RopeAngles } from './dense.ts'
import { headForward, kvCache, runLayers, type KvCache, type ParamViews } from './forward-tape.ts'

export interface GreedyOptions {
  readonly maxNewTokens: number
  /** Generation stops after this token (it is included in the result). */
  readonly stopToken: number
}

function argmax(logits: Float64Array): number {
  let best = 0
  for (let i = 1; i < logits.length; i++) if (logits[i]! > logits[best]!) best = i
  return best
}

export class GreedyDecoder {
  private readonly angles: RopeAngles

  constructor(
    private readonly config: ModelConfig,
    private readonly params: ParamViews,
  ) {
    this.angles = ropeAngles(config.maxSeqLen, headDim(config), config.ropeTheta)
  }

  /** Logits after the appended block's last token, continuing `cache`. */
  private next(ids: ArrayLike<number>, cache: KvCache): Float64Array {
    const { x } = runLayers(this.config, this.params, ids, this.angles, 1, cache)
    return headForward(this.config, this.params, x).logits
  }

  /** The tokens greedy decoding appends to `prompt`; stops at the stop token, maxNewTokens or maxSeqLen. */
  generate(prompt: ArrayLike<number>, options: GreedyOptions): number[] {
    const cache = kvCache(this.config)
    const out: number[] = []
    let logits = this.next(prompt, cache)
    while (out.length < options.maxNewTokens) {
      const token = argmax(logits)
      out.push(token)
      if (token === options.stopToken || cache.length >= this.config.maxSeqLen) break
      logits = this.next([token], cache)
    }
    return out
  }
}
