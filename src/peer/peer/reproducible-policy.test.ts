import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { initParams } from '../../compute/model/params.ts'
import { TINY_CONFIG } from '../../compute/model/test-model.ts'
import { parseTokenizerJson } from '../../compute/model/tokenizer/bpe-tokenizer.ts'
import type { Tokenizer } from '../../compute/model/tokenizer/tokenizer.ts'
import { createReproduciblePolicy } from './reproducible-policy.ts'
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import { SMALL_LEARNING } from '../../core/learning/small-learning.ts'

const groups: TokenizedGroup[] = [
  {
    promptIds: [3, 4],
    completions: [
      [5, 6, 2],
      [7, 2],
    ],
    rewards: [1, 0],
  },
  {
    promptIds: [8],
    completions: [
      [9, 2],
      [10, 11, 2],
    ],
    rewards: [0, 1],
  },
]

// training reads no text: the tokenizer only serves sampling and matching
const policy = (
  klBeta?: number,
  tokenizer = {} as Tokenizer,
  eosId = 2,
  config = TINY_CONFIG,
  epochs?: number,
  lrAt?: (step: number) => number,
) =>
  createReproduciblePolicy({
    ...(epochs === undefined ? {} : { epochs }),
    ...(lrAt === undefined ? {} : { lrAt }),
    config,
    params: initParams(config, [1, 2]),
    tokenizer,
    promptTemplate: '{prompt}',
    eosId,
    sampling: SMALL_LEARNING.sampling,
    grpo: { ...SMALL_LEARNING.grpo, lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, klBeta },
  })

describe('the reproducible policy', () => {
  it('with a KL weight, penalises drift from the weights it started from and reports the KL', async () => {
    const plain = policy()
    const withKl = policy(0.1)
    const [plain1, kl1] = [await plain.train(groups), await withKl.train(groups)]
    expect(plain1.kl).toBeUndefined()
    // the first step starts at the reference: KL 0, the same update
    expect(kl1).toEqual({ ...plain1, kl: 0 })
    const [plain2, kl2] = [await plain.train(groups), await withKl.train(groups)]
    expect(kl2.kl).toBeGreaterThan(0)
    expect(kl2.weightsHash).not.toBe(plain2.weightsHash)
  })

  it('with epochs, takes that many steps on one batch, each clipped against the policy that sampled it', async () => {
    const once = policy()
    const first = await once.train(groups)
    const twice = policy(undefined, undefined, undefined, undefined, 2)
    const both = await twice.train(groups)
    expect(twice.version).toBe(1)
    // a second step moved the weights past the first…
    expect(both.weightsHash).not.toBe(first.weightsHash)
    // …and is not a fresh on-policy step from there: its ratio is against the first step's policy
    const onPolicy = await once.train(groups)
    expect(both.weightsHash).not.toBe(onPolicy.weightsHash)
    expect(() => policy(undefined, undefined, undefined, undefined, 0)).toThrow(/≥ 1 whole optimizer steps/)
  })

  it('with an lr schedule, takes its n-th step at the schedule’s n-th lr', async () => {
    const at = [1e-2, 1e-3]
    const scheduled = policy(undefined, undefined, undefined, undefined, undefined, (step) => at[step]!)
    const constant = policy()
    // step 0 at 1e-2: the constant policy's first step
    expect(await scheduled.train(groups)).toEqual(await constant.train(groups))
    // step 1 at 1e-3 is not the constant policy's second step at 1e-2
    const [slow, fast] = [await scheduled.train(groups), await constant.train(groups)]
    expect(slow.weightsHash).not.toBe(fast.weightsHash)
  })
})

describe('the reproducible policy matching heard completions', () => {
  const folder = new URL('../../../public/models/tabswarm-micro/', import.meta.url)
  const tokenizer = parseTokenizerJson(JSON.parse(readFileSync(new URL('tokenizer.json', folder), 'utf8')))
  const eosId = tokenizer.tokenId('<|endoftext|>')!
  const matcher = policy(undefined, tokenizer, eosId, { ...TINY_CONFIG, vocabSize: tokenizer.vocabSize })

  it('samples several prompts in one batch: each request the completions sample gives it alone', async () => {
    const requests = [
      { promptIds: tokenizer.encode('12 + 7 ='), samples: 3, key: 's/1/p/0' },
      { promptIds: tokenizer.encode('reduce 6/8'), samples: 2, key: 's/1/p/1' },
      { promptIds: tokenizer.encode('3'), samples: 4, key: 's/1/p/0' },
    ]
    const alone = await Promise.all(requests.map((r) => matcher.sample(r.promptIds, r.samples, r.key)))
    expect(await matcher.sampleMany!(requests)).toEqual(alone)
    expect(alone.map((c) => c.length)).toEqual([3, 2, 4])
    // the key seeds the draw: one prompt under two keys samples differently
    const rekeyed = await matcher.sample(requests[0]!.promptIds, 3, 's/1/p/1')
    expect(rekeyed.map((c) => c.tokenIds)).not.toEqual(alone[0]!.map((c) => c.tokenIds))
  })

  it('refuses token ids that hide a special token from their text: only a final EOS is left out', () => {
    const text = '<answer>1</answer>'
    const ids = tokenizer.encode(text)
    expect(matcher.matches({ text, tokenIds: ids })).toBe(true)
    expect(matcher.matches({ text, tokenIds: [...ids, eosId] })).toBe(true)
    expect(matcher.matches({ text, tokenIds: [eosId, ...ids] })).toBe(false)
    expect(matcher.matches({ text, tokenIds: [...ids, eosId, eosId] })).toBe(false)
  })
})
