import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseTokenizerJson } from '../../compute/model/tokenizer/bpe-tokenizer.ts'
import type { SamplingOptions, SolverPrompt } from '../solver/solver-protocol.ts'
import { generateReasoningTask } from '../../core/tasks/generate-reasoning-task.ts'
import type { TrainerStepResult } from '../trainer/trainer-session.ts'
import type { GrpoParams } from '../../compute/proof/work-params.ts'
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import { ADAM_MOMENTS, grpoParamsOf } from '../../compute/proof/work-params.ts'
import { createWorkerPolicy, seedOfKey, type WorkerPolicyOptions } from './worker-policy.ts'
import { SMALL_LEARNING } from '../../core/learning/small-learning.ts'

const folder = new URL('../../../public/models/tabswarm-micro/', import.meta.url)
const tokenizer = parseTokenizerJson(JSON.parse(readFileSync(new URL('tokenizer.json', folder), 'utf8')))
const eos = tokenizer.tokenId('<|endoftext|>')!
const task = generateReasoningTask('arithmetic', 1, 3)

function setup() {
  const calls: string[] = []
  const generated: { prompt: SolverPrompt; samples: number; sampling: SamplingOptions }[] = []
  const solver: WorkerPolicyOptions['solver'] = {
    generate(prompt, samples, sampling) {
      generated.push({ prompt, samples, sampling })
      // sample 0 stops at EOS, sample 1 at the token limit
      const completions = Array.from({ length: samples }, (_, i) => {
        const text = `<answer>${i}</answer>`
        const ids = tokenizer.encode(text)
        return i === 0
          ? { text, tokenIds: [...ids, eos], stop: 'eos' as const }
          : { text, tokenIds: ids, stop: 'max-tokens' as const }
      })
      return Object.assign(Promise.resolve({ completions, tokensPerSecond: 1, firstTokenMs: 1 }), {
        requestId: 1,
      })
    },
    async swapWeights(checkpoint) {
      calls.push(`swap ${checkpoint.length}`)
      return 'w'
    },
  }
  const trainer: WorkerPolicyOptions['trainer'] = {
    async step(groups, params) {
      calls.push(`step ${groups.length} lr ${params.lr} beta2 ${params.beta2} clip ${params.clipEpsHigh}`)
      return {
        status: { modelId: 'm', policyVersion: 8, weightsHash: 'h8', chain: { tip: 't', length: 8 } },
        checkpoint: new Uint8Array(3),
        loss: 0.25,
        // floor(norm·2^62) as the receipt outputs hold it: a norm of 0.5
        gradNorm: String(2n ** 61n),
        receipt: {},
        stepMs: 5,
      } as unknown as TrainerStepResult
    },
  }
  const policy = createWorkerPolicy({
    solver,
    trainer,
    tokenizer,
    promptTemplate: '{prompt}\n',
    vocabSize: 300,
    eosIds: [eos],
    maxSeqLen: 256,
    sampling: SMALL_LEARNING.sampling,
    grpo: SMALL_LEARNING.grpo,
    policyVersion: 7,
    onStep: async (r) => void calls.push(`receipt v${r.status.policyVersion}`),
  })
  return { policy, calls, generated }
}

describe('the tab policy', () => {
  it("frames prompts as the solver does and samples their ids through it with the key's seed", async () => {
    const { policy, generated } = setup()
    const ids = policy.promptIds(task)
    expect(ids).toEqual(tokenizer.encode(`${task.prompt}\n`))
    const samples = await policy.sample(ids, 2, 'swarm/3/peer/0')
    expect(generated).toEqual([
      {
        prompt: { ids },
        samples: 2,
        sampling: { ...SMALL_LEARNING.sampling, seed: seedOfKey('swarm/3/peer/0') },
      },
    ])
    expect(seedOfKey('swarm/3/peer/0')).toBe(seedOfKey('swarm/3/peer/0'))
    expect(seedOfKey('swarm/3/peer/1')).not.toBe(seedOfKey('swarm/3/peer/0'))
    expect(samples.map((s) => s.eos)).toEqual([true, false])
    // its own completions, EOS included, match their text; a forged one does not
    expect(samples.every((s) => policy.matches(s))).toBe(true)
    expect(policy.matches({ text: '<answer>5</answer>', tokenIds: samples[0]!.tokenIds })).toBe(false)
    expect(policy.matches({ text: '', tokenIds: [300] })).toBe(false)
    // the solver takes the ids themselves: nothing is remembered, any ids can be sampled
    expect((await policy.sample([1, 2, 3], 2, 'k')).length).toBe(2)
    expect(generated.at(-1)!.prompt).toEqual({ ids: [1, 2, 3] })
  })

  it('refuses token ids that hide a special token from their text: only a final EOS is left out', () => {
    const { policy } = setup()
    const text = '<answer>1</answer>'
    const ids = tokenizer.encode(text)
    expect(policy.matches({ text, tokenIds: [...ids, eos] })).toBe(true)
    expect(policy.matches({ text, tokenIds: [eos, ...ids] })).toBe(false)
    expect(policy.matches({ text, tokenIds: [...ids.slice(0, 2), eos, ...ids.slice(2)] })).toBe(false)
    expect(policy.matches({ text, tokenIds: [...ids, eos, eos] })).toBe(false)
  })

  it('trains on the trainer, swaps the weights into the solver, then hands over the receipt', async () => {
    const { policy, calls } = setup()
    expect(policy.version).toBe(7)
    const group: TokenizedGroup = { promptIds: [1], completions: [[2], [3]], rewards: [0, 1] }
    expect(await policy.train([group, group])).toEqual({ loss: 0.25, gradNorm: 0.5, weightsHash: 'h8' })
    expect(calls).toEqual(['step 2 lr 0.0001 beta2 0.999 clip 0.28', 'swap 3', 'receipt v8'])
    expect(policy.version).toBe(8)
  })

  it('passes a KL weight to the trainer only when it is set, and hands back the KL', async () => {
    const base = { ...SMALL_LEARNING.grpo }
    expect(grpoParamsOf(base)).toEqual({ ...base, ...ADAM_MOMENTS })
    expect(grpoParamsOf({ ...base, klBeta: 0 })).not.toHaveProperty('klBeta')
    expect(grpoParamsOf({ ...base, klBeta: 0.04 })).toEqual({ ...base, ...ADAM_MOMENTS, klBeta: 0.04 })
    const seen: GrpoParams[] = []
    const policy = createWorkerPolicy({
      solver: {
        generate: () => {
          throw new Error('this test does not sample')
        },
        swapWeights: async () => 'w',
      },
      trainer: {
        async step(_groups, params) {
          seen.push(params)
          return {
            status: { policyVersion: 1, weightsHash: 'h1' },
            checkpoint: new Uint8Array(1),
            loss: 0.5,
            kl: 0.125,
            gradNorm: '0',
          } as unknown as TrainerStepResult
        },
      },
      tokenizer,
      promptTemplate: '{prompt}',
      vocabSize: 300,
      eosIds: [eos],
      maxSeqLen: 256,
      sampling: SMALL_LEARNING.sampling,
      grpo: { ...base, klBeta: 0.04 },
      policyVersion: 0,
    })
    const group: TokenizedGroup = { promptIds: [1], completions: [[2], [3]], rewards: [0, 1] }
    expect(await policy.train([group])).toEqual({ loss: 0.5, kl: 0.125, gradNorm: 0, weightsHash: 'h1' })
    expect(seen[0]!.klBeta).toBe(0.04)
  })
})
