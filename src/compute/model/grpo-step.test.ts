import { describe, expect, it } from 'vitest'
import { toFloat } from '../kernels/ref/tensor.ts'
import { weightsHash } from './checkpoint.ts'
import { grpoStep, tokenLogProbsOf, type GrpoConfig, type RolloutBatch } from './grpo-step.ts'
import { initParams } from './params.ts'
import { TINY_CONFIG } from './test-model.ts'
import { initTrainState } from './train-step.ts'

const params = initParams(TINY_CONFIG, [9, 1])
const train: GrpoConfig = {
  lr: 3e-3,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0,
  maxGradNorm: 1,
  clipEps: 0.2,
  clipEpsHigh: 0.28,
}

// one group of two completions of the same 4-token prompt: row 0 answers 7 7, row 1 answers 9 9
const seqLen = 6
const prompt = [1, 2, 3, 4]
const rows = [
  [...prompt, 7, 7],
  [...prompt, 9, 9],
]
const batch = (advantages: number[]): RolloutBatch => {
  const ids = Int32Array.from(rows.flat())
  // the target at position i is token i + 1; the last position has none (masked)
  const targets = Int32Array.from(rows.flatMap((r) => r.map((_, i) => r[i + 1] ?? 0)))
  const mask = Uint8Array.from(
    rows.flatMap((r) => r.map((_, i) => (i >= prompt.length - 1 && i < r.length - 1 ? 1 : 0))),
  )
  return { inputs: { ids, batch: 2, seqLen }, targets, mask, advantages }
}

/** mean log-prob of each row's completion tokens */
const completionLogProb = (p: typeof params, b: RolloutBatch) => {
  const lp = toFloat(tokenLogProbsOf(TINY_CONFIG, p, b))
  return [0, 1].map((r) => {
    let s = 0
    for (let i = 0; i < seqLen; i++) if (b.mask[r * seqLen + i]) s += lp[r * seqLen + i]!
    return s
  })
}

describe('grpoStep', () => {
  it('makes the rewarded completion more likely and the other less, deterministically', () => {
    const b = batch([1, -1])
    const before = completionLogProb(params, b)
    let state = initTrainState(TINY_CONFIG, params)
    for (let step = 0; step < 4; step++) {
      const old = tokenLogProbsOf(TINY_CONFIG, state.params, b)
      state = grpoStep(TINY_CONFIG, state, b, old, train).state
    }
    const after = completionLogProb(state.params, b)
    expect(after[0]).toBeGreaterThan(before[0]! + 0.05)
    expect(after[1]).toBeLessThan(before[1]! - 0.05)

    const once = () => {
      const s = initTrainState(TINY_CONFIG, params)
      return weightsHash(
        TINY_CONFIG,
        grpoStep(TINY_CONFIG, s, b, tokenLogProbsOf(TINY_CONFIG, params, b), train).state.params,
      )
    }
    expect(once()).toBe(once())
  })

  it('on-policy (no old log-probs given) is the same step as with the recomputed ones', () => {
    const b = batch([1, -1])
    const state = initTrainState(TINY_CONFIG, params)
    const given = grpoStep(TINY_CONFIG, state, b, tokenLogProbsOf(TINY_CONFIG, params, b), train)
    const onPolicy = grpoStep(TINY_CONFIG, state, b, undefined, train)
    expect(weightsHash(TINY_CONFIG, onPolicy.state.params)).toBe(weightsHash(TINY_CONFIG, given.state.params))
    expect(onPolicy.loss.data).toEqual(given.loss.data)
  })

  it('leaves the weights alone for a group whose rewards were all equal (zero advantages)', () => {
    const b = batch([0, 0])
    const state = initTrainState(TINY_CONFIG, params)
    const next = grpoStep(TINY_CONFIG, state, b, tokenLogProbsOf(TINY_CONFIG, params, b), train)
    expect(weightsHash(TINY_CONFIG, next.state.params)).toBe(weightsHash(TINY_CONFIG, params))
    expect(next.gradNorm).toBe(0n)
  })

  it('names the op sequence in its trace', () => {
    const b = batch([1, -1])
    const ops: string[] = []
    grpoStep(
      TINY_CONFIG,
      initTrainState(TINY_CONFIG, params),
      b,
      tokenLogProbsOf(TINY_CONFIG, params, b),
      train,
      (op) => ops.push(op),
    )
    const i = (name: string) => ops.indexOf(name)
    expect(i('logprobs')).toBeGreaterThan(0)
    expect(ops.slice(i('logprobs'), i('logprobs') + 4)).toEqual(['logprobs', 'loss', 'dlogprobs', 'dlogits'])
    expect(ops.at(-1)).toMatch(/^adam\./)
  })

  it('refuses advantages that do not match the rows', () => {
    const b = batch([1])
    expect(() =>
      grpoStep(
        TINY_CONFIG,
        initTrainState(TINY_CONFIG, params),
        b,
        tokenLogProbsOf(TINY_CONFIG, params, b),
        train,
      ),
    ).toThrow('1 advantages for 2 rows')
  })

  describe('with a KL penalty', () => {
    const klTrain: GrpoConfig = { ...train, klBeta: 0.5 }
    const b = batch([1, -1])

    it('is the plain step when the policy is its own reference: KL 0 and the same weights', () => {
      const state = initTrainState(TINY_CONFIG, params)
      const ref = tokenLogProbsOf(TINY_CONFIG, params, b)
      const plain = grpoStep(TINY_CONFIG, state, b, undefined, train)
      const withKl = grpoStep(TINY_CONFIG, state, b, undefined, klTrain, undefined, ref)
      expect(plain.kl).toBeUndefined()
      expect(toFloat(withKl.kl!)[0]).toBe(0)
      expect(weightsHash(TINY_CONFIG, withKl.state.params)).toBe(weightsHash(TINY_CONFIG, plain.state.params))
    })

    it('reports a positive KL once the policy has moved, and adds β·KL to the loss', () => {
      const ref = tokenLogProbsOf(TINY_CONFIG, params, b)
      // two plain steps move the policy away from the reference weights
      let state = initTrainState(TINY_CONFIG, params)
      for (let step = 0; step < 2; step++) state = grpoStep(TINY_CONFIG, state, b, undefined, train).state
      const plain = grpoStep(TINY_CONFIG, state, b, undefined, train)
      const withKl = grpoStep(TINY_CONFIG, state, b, undefined, klTrain, undefined, ref)
      const kl = toFloat(withKl.kl!)[0]!
      expect(kl).toBeGreaterThan(0)
      expect(toFloat(withKl.loss)[0]! - toFloat(plain.loss)[0]!).toBeCloseTo(0.5 * kl, 6)
      const again = grpoStep(TINY_CONFIG, state, b, undefined, klTrain, undefined, ref)
      expect(weightsHash(TINY_CONFIG, again.state.params)).toBe(weightsHash(TINY_CONFIG, withKl.state.params))
    })

    it('pulls the policy back toward the reference when the advantages leave only the penalty', () => {
      const ref = tokenLogProbsOf(TINY_CONFIG, params, b)
      let moved = initTrainState(TINY_CONFIG, params)
      for (let step = 0; step < 2; step++) moved = grpoStep(TINY_CONFIG, moved, b, undefined, train).state
      // fresh Adam moments, so that only this step's gradient moves the weights
      const state = initTrainState(TINY_CONFIG, moved.params)
      const flat = batch([0, 0])
      const klOf = (s: typeof state) =>
        toFloat(grpoStep(TINY_CONFIG, s, flat, undefined, klTrain, undefined, ref).kl!)[0]!
      const pulled = grpoStep(TINY_CONFIG, state, flat, undefined, klTrain, undefined, ref).state
      expect(klOf(pulled)).toBeLessThan(klOf(state))
      // without the penalty zero advantages leave the weights where they are
      const plain = grpoStep(TINY_CONFIG, state, flat, undefined, train).state
      expect(weightsHash(TINY_CONFIG, plain.params)).toBe(weightsHash(TINY_CONFIG, state.params))
    })

    it('traces kl after loss only when β > 0', () => {
      const ops = (config: GrpoConfig) => {
        const seen: string[] = []
        const ref = tokenLogProbsOf(TINY_CONFIG, params, b)
        grpoStep(
          TINY_CONFIG,
          initTrainState(TINY_CONFIG, params),
          b,
          undefined,
          config,
          (op) => seen.push(op),
          ref,
        )
        return seen
      }
      const plain = ops(train)
      const withKl = ops(klTrain)
      expect(plain).not.toContain('kl')
      expect(withKl.slice(withKl.indexOf('loss'), withKl.indexOf('loss') + 3)).toEqual([
        'loss',
        'kl',
        'dlogprobs',
      ])
      expect(withKl.filter((op) => op !== 'kl')).toEqual(plain)
    })

    it('refuses β > 0 without reference log-probs, and a β outside [0, 1]', () => {
      const state = initTrainState(TINY_CONFIG, params)
      expect(() => grpoStep(TINY_CONFIG, state, b, undefined, klTrain)).toThrow(
        /needs the reference policy’s log-probs/,
      )
      const ref = tokenLogProbsOf(TINY_CONFIG, params, b)
      expect(() =>
        grpoStep(TINY_CONFIG, state, b, undefined, { ...train, klBeta: 2 }, undefined, ref),
      ).toThrow(/klBeta must be a number in \[0, 1\]/)
    })
  })
})
