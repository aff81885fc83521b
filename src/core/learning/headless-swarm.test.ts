// Three headless peers learning together in Node: in-memory sharing, the reproducible policy (integer
// forward, Philox sampling, GRPO on the TS twin of the kernels), the real verifiers. The same round loop
// as a tab. Two identical runs give identical weights: the swarm's learning is reproducible end to end.
import { describe, expect, it } from 'vitest'
import { weightsHash } from '../../compute/model/checkpoint.ts'
import type { ModelConfig } from '../../compute/model/config.ts'
import { initParams } from '../../compute/model/params.ts'
import { parseTokenizerJson } from '../../compute/model/tokenizer/bpe-tokenizer.ts'
import { trainBpe } from '../../compute/model/tokenizer/train-bpe.ts'
import { generateReasoningTask } from '../tasks/generate-reasoning-task.ts'
import { scoreReasoning } from '../tasks/score-completion.ts'
import type { ReasoningTask } from '../tasks/task.ts'
import { type LearningConfig } from './learning-config.ts'
import { createMemoryHub } from './memory-comm.ts'
import { createReproduciblePolicy } from '../../peer/peer/reproducible-policy.ts'
import { createRoundInbox } from './round-inbox.ts'
import { runRound, type PeerContext, type RoundReport } from './swarm-round.ts'
import { SMALL_LEARNING } from './small-learning.ts'

const learning: LearningConfig = {
  ...SMALL_LEARNING,
  sources: [{ kind: 'reasoning', family: 'arithmetic' }],
  sampling: { temperature: 1, topK: 0, topP: 1, maxNewTokens: 6 },
  grpo: { ...SMALL_LEARNING.grpo, lr: 1e-2 },
}
const tokenizer = parseTokenizerJson(
  trainBpe(
    Array.from(
      { length: 200 },
      (_, s) => `${generateReasoningTask('arithmetic', 1, s).prompt}\n<answer>7</answer>`,
    ),
    { vocabSize: 320, specialTokens: ['<|endoftext|>'] },
  ),
)
const eosId = tokenizer.tokenId('<|endoftext|>')!
const config: ModelConfig = {
  vocabSize: tokenizer.vocabSize,
  dim: 16,
  layers: 1,
  heads: 2,
  kvHeads: 1,
  ffnDim: 24,
  ropeTheta: 10000,
  maxSeqLen: 96,
  tiedEmbeddings: true,
  normEps: 1e-6,
}

// An untrained model never writes <answer>…</answer>, so the task reward is the same for every
// completion, every group is flat and GRPO learns nothing. A dense stand-in reward (the share of digits
// in the completion) gives the groups the spread a partly trained model has; the first test shows what
// the real verifier makes of an untrained completion.
const score = async (_task: unknown, c: { text: string }) =>
  c.text.length === 0 ? 0 : [...c.text].filter((ch) => ch >= '0' && ch <= '9').length / c.text.length

const freshPolicy = () =>
  createReproduciblePolicy({
    config,
    params: initParams(config, [1, 2]),
    tokenizer,
    promptTemplate: '{prompt}\n',
    eosId,
    sampling: learning.sampling,
    grpo: { ...learning.grpo, beta1: 0.9, beta2: 0.999, eps: 1e-8 },
  })

async function run(rounds: number): Promise<RoundReport[][]> {
  const hub = createMemoryHub()
  const peers: PeerContext[] = ['a', 'b', 'c'].map((name) => {
    const comm = hub.join(name)
    return {
      swarmId: 'e'.repeat(64),
      comm,
      inbox: createRoundInbox(comm, learning.groupSize),
      learning,
      policy: freshPolicy(),
      score,
      windowClosed: (round) => hub.allPublished(round),
    }
  })
  const reports: RoundReport[][] = []
  for (let round = 0; round < rounds; round++)
    reports.push(await Promise.all(peers.map((p) => runRound(p, round))))
  return reports
}

describe('a headless swarm', () => {
  it('scores with the real verifier: an untrained completion is unformatted', async () => {
    const task = generateReasoningTask('arithmetic', 1, 5) as ReasoningTask
    const policy = freshPolicy()
    const [c] = await policy.sample(policy.promptIds(task), 1, 'k')
    expect(c!.tokenIds.length).toBeGreaterThan(0)
    expect(policy.matches(c!)).toBe(true)
    expect(scoreReasoning(task, c!.text, c!.tokenIds.length).reward.format).toBe(-1)
  })

  it('runs rounds in which every peer shares, hears the others and takes a reproducible GRPO step', async () => {
    const first = await run(2)
    for (const round of first)
      for (const r of round) {
        expect(r.groupsPublished).toBe(2)
        expect(r.groupsHeard).toBe(4)
        expect(r.trainedOn).toMatchObject({ local: 2, external: 2 })
        expect(r.trainedOn.informative).toBeGreaterThanOrEqual(0)
        expect(r.trainedOn.informative).toBeLessThanOrEqual(4)
        expect(r.weightsHash).toMatch(/^[0-9a-f]{64}$/)
        expect(Number.isFinite(r.loss)).toBe(true)
      }
    expect(first[1]!.map((r) => r.policyVersion)).toEqual([2, 2, 2])
    // the same swarm again: the same weights after its first round, bit for bit
    const again = await run(1)
    expect(again[0]!.map((r) => r.weightsHash)).toEqual(first[0]!.map((r) => r.weightsHash))
    // learning happened: some peer's weights moved off the shared initial weights
    const init = weightsHash(config, initParams(config, [1, 2]))
    expect(first[1]!.some((r) => r.weightsHash !== init)).toBe(true)
  }, 120_000)
})
