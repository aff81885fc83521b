import { generateKeyPair } from '@libp2p/crypto/keys'
import { describe, expect, it } from 'vitest'
import { toFloat } from '../../compute/kernels/ref/tensor.ts'
import { checkpointHash, weightsHash, writeCheckpoint } from '../../compute/model/checkpoint.ts'
import { grpoStep, tokenLogProbsOf } from '../../compute/model/grpo-step.ts'
import { initParams } from '../../compute/model/params.ts'
import { TINY_CONFIG } from '../../compute/model/test-model.ts'
import { initTrainState } from '../../compute/model/train-step.ts'
import { MemoryBlobStore } from '../../core/storage/blob-store.ts'
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import { buildRolloutBatch } from '../../compute/model/rollout-batch.ts'
import { genesis } from '../../core/protocol/hash-chain.ts'
import { kernelsHashFromDisk } from '../../compute/proof/kernels-hash-node.ts'
import { TEST_MODEL_ID } from '../../compute/proof/models.ts'
import { signPrepared } from '../../compute/proof/receipt-builders.ts'
import { verify } from '../../compute/proof/verify.ts'
import { grpoConfig, type GrpoParams } from '../../compute/proof/work-params.ts'
import {
  createTrainerSession,
  DEFAULT_SNAPSHOT_KEY,
  snapshotKeyOf,
  type TrainerStart,
  type TrainerStepResult,
  type TrainerStore,
} from './trainer-session.ts'

const kernelsHash = kernelsHashFromDisk()
const PAD = 2
const SEED = [5, 0] as const
const START: TrainerStart = { modelId: TEST_MODEL_ID, padId: PAD, config: TINY_CONFIG, seed: SEED }
const GRPO: GrpoParams = {
  lr: 1e-2,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0,
  maxGradNorm: 1,
  clipEps: 0.2,
  clipEpsHigh: 0.28,
}

/** Step n's rollouts: two groups of three whose tokens and rewards change with n. */
function groupsFor(n: number): TokenizedGroup[] {
  const token = (i: number) => 3 + ((n * 7 + i * 5) % 20)
  return [0, 1].map((g) => ({
    promptIds: [token(g), token(g + 1)],
    completions: [0, 1, 2].map((c) => Array.from({ length: 2 + ((n + c) % 3) }, (_, i) => token(g + c + i))),
    rewards: [0, 1, 2].map((c) => ((n + g + c) % 3) / 2),
  }))
}

const session = (store: TrainerStore = new MemoryBlobStore()) => createTrainerSession({ store, kernelsHash })

async function steps(trainer: ReturnType<typeof session>, from: number, to: number) {
  const results: TrainerStepResult[] = []
  for (let n = from; n < to; n++) results.push(await trainer.step(groupsFor(n), GRPO))
  return results
}

describe('a trainer session', () => {
  it('starts at version 0 on the genesis of its weights, and saves them', async () => {
    const store = new MemoryBlobStore()
    const { status, checkpoint } = await session(store).init(START)
    const expected = weightsHash(TINY_CONFIG, initParams(TINY_CONFIG, SEED))
    expect(status).toEqual({
      modelId: TEST_MODEL_ID,
      policyVersion: 0,
      weightsHash: expected,
      chain: genesis(expected),
      startWeightsHash: expected,
    })
    expect(checkpointHash(checkpoint)).toBe(expected)
    expect(store.entries.has(DEFAULT_SNAPSHOT_KEY)).toBe(true)
  })

  it('takes the same GRPO step as the swarm policy (buildRolloutBatch, old log-probs, grpoStep)', async () => {
    const trainer = session()
    await trainer.init(START)
    const [result] = await steps(trainer, 0, 1)
    const params = initParams(TINY_CONFIG, SEED)
    const batch = buildRolloutBatch(groupsFor(0), PAD, TINY_CONFIG.maxSeqLen)
    const old = tokenLogProbsOf(TINY_CONFIG, params, batch)
    const direct = grpoStep(TINY_CONFIG, initTrainState(TINY_CONFIG, params), batch, old, grpoConfig(GRPO))
    expect(result!.status.weightsHash).toBe(weightsHash(TINY_CONFIG, direct.state.params))
    expect(result!.loss).toBe(toFloat(direct.loss)[0])
    expect(result!.gradNorm).toBe(direct.gradNorm.toString())
    expect(checkpointHash(result!.checkpoint)).toBe(result!.status.weightsHash)
  })

  it('resumes after a reload exactly: 3 steps, reload, step 4 equals 4 uninterrupted steps', async () => {
    const straight = session()
    await straight.init(START)
    const uninterrupted = await steps(straight, 0, 4)

    const store = new MemoryBlobStore()
    const first = session(store)
    await first.init(START)
    await steps(first, 0, 3)
    const reloaded = session(store)
    expect(reloaded.status).toBeUndefined()
    const resumed = await reloaded.resume()
    expect(resumed!.status).toEqual(uninterrupted[2]!.status)
    const [fourth] = await steps(reloaded, 3, 4)

    const last = uninterrupted[3]!
    expect(fourth!.status).toEqual(last.status)
    expect(fourth!.status.policyVersion).toBe(4)
    expect(fourth!.status.chain.length).toBe(4)
    // four steps and a reload on, it still knows which weights it started from
    expect(fourth!.status.startWeightsHash).toBe(weightsHash(TINY_CONFIG, initParams(TINY_CONFIG, SEED)))
    expect(fourth!.receipt.body).toEqual(last.receipt.body)
    expect(fourth!.receipt.inputs).toEqual(last.receipt.inputs)
    // the chain links: each receipt starts from the weights and chain tip the step before left
    uninterrupted.slice(1).forEach((r, i) => {
      expect(r.receipt.body.weightsHash).toBe(uninterrupted[i]!.status.weightsHash)
      expect(r.receipt.inputs.chain).toEqual(uninterrupted[i]!.status.chain)
      expect(r.receipt.body.chainTip).toBe(r.status.chain.tip)
    })
  })

  it('gives receipts that verify once the caller signs them, after a resume too', async () => {
    const store = new MemoryBlobStore()
    const before = session(store)
    await before.init(START)
    await steps(before, 0, 1)
    const trainer = session(store)
    await trainer.resume()
    const [second] = await steps(trainer, 1, 2)
    const { receipt, inputs } = await signPrepared(second!.receipt, await generateKeyPair('Ed25519'))
    expect(receipt.kind).toBe('grpo-step')
    expect(receipt.chainLength).toBe(2)
    expect(await verify(receipt, inputs, kernelsHash)).toEqual({ ok: true })
  })

  it('resumes from a checkpoint start with a given chain, and keeps counting from it', async () => {
    const params = initParams(TINY_CONFIG, [9, 9])
    const chain = { tip: genesis('ab'.repeat(32)).tip, length: 7 }
    const trainer = session()
    const { status } = await trainer.init({
      modelId: TEST_MODEL_ID,
      padId: PAD,
      checkpoint: writeCheckpoint(TINY_CONFIG, params),
      chain,
    })
    expect(status.chain).toEqual(chain)
    const [result] = await steps(trainer, 0, 1)
    expect(result!.status.chain.length).toBe(8)
    expect(result!.receipt.inputs.chain).toEqual(chain)
  })

  it('keeps training in memory when a step cannot be saved, says since when, and saves again once it can', async () => {
    const store = new MemoryBlobStore()
    let failPuts = false
    const flaky: TrainerStore = {
      get: (key) => store.get(key),
      put: (key, bytes) =>
        failPuts
          ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
          : store.put(key, bytes),
    }
    const trainer = session(flaky)
    await trainer.init(START)
    const [one] = await steps(trainer, 0, 1)
    expect(one!.unsaved).toBeUndefined()
    failPuts = true
    const [two, three] = await steps(trainer, 1, 3)
    // a full disk does not stop learning: the steps happen, and each says what a reload would go back to
    expect(two!.status.policyVersion).toBe(2)
    expect(three!.status.policyVersion).toBe(3)
    expect(three!.unsaved).toEqual({ savedVersion: 1, full: true, why: 'The quota has been exceeded.' })
    // what is saved is still step 1: a reload now resumes there
    expect((await session(store).resume())!.status).toEqual(one!.status)
    failPuts = false
    const [four] = await steps(trainer, 3, 4)
    expect(four!.unsaved).toBeUndefined()
    expect((await session(store).resume())!.status).toEqual(four!.status)

    // the same steps as a trainer whose disk never filled
    const straight = session()
    await straight.init(START)
    expect(four!.status).toEqual((await steps(straight, 0, 4))[3]!.status)
  })

  it('does not start a trainer it cannot save', async () => {
    const full: TrainerStore = {
      get: () => Promise.resolve(undefined),
      put: () => Promise.reject(new Error('quota exceeded')),
    }
    await expect(session(full).init(START)).rejects.toThrow(
      'the new trainer could not be saved (quota exceeded)',
    )
  })

  it('refuses what it cannot train, naming the problem', async () => {
    const trainer = session()
    await expect(trainer.step(groupsFor(0), GRPO)).rejects.toThrow('init or resume it first')
    await expect(trainer.init({ ...START, padId: 24 })).rejects.toThrow(
      'padId 24 is not a token of this model',
    )
    await trainer.init(START)
    await expect(trainer.step([], GRPO)).rejects.toThrow('at least one rollout group')
    await expect(trainer.step(groupsFor(0), { ...GRPO, clipEps: 0 })).rejects.toThrow('params.clipEps')
    const uneven = [{ ...groupsFor(0)[0]!, rewards: [1] }]
    await expect(trainer.step(uneven, GRPO)).rejects.toThrow('3 completions and 1 rewards')
    expect(trainer.status!.policyVersion).toBe(0)
  })

  it('keeps two peers of one origin apart: each resumes its own weights from its own key', async () => {
    const store = new MemoryBlobStore()
    const [a, b] = [snapshotKeyOf('12D3KooWPeerA'), snapshotKeyOf('12D3KooWPeerB')]
    expect(a).not.toBe(b)
    const tabA = session(store)
    await tabA.init(START, a)
    const [stepA] = await steps(tabA, 0, 1)
    const tabB = session(store)
    await tabB.init({ ...START, seed: [6, 0] }, b)
    const [stepB1, stepB2] = await steps(tabB, 3, 5)
    expect(stepB2!.status.weightsHash).not.toBe(stepA!.status.weightsHash)
    // a reload of either finds its own trainer, not the other's last save
    expect((await session(store).resume(a))!.status).toEqual(stepA!.status)
    expect((await session(store).resume(b))!.status).toEqual(stepB2!.status)
    expect(stepB1!.status.policyVersion).toBe(1)
    expect(store.entries.has(DEFAULT_SNAPSHOT_KEY)).toBe(false)
    expect(await session(store).resume(snapshotKeyOf('12D3KooWPeerC'))).toBeUndefined()
  })

  it('finds nothing in an empty store and refuses a damaged snapshot', async () => {
    const store = new MemoryBlobStore()
    expect(await session(store).resume()).toBeUndefined()
    await session(store).init(START)
    const bytes = store.entries.get(DEFAULT_SNAPSHOT_KEY)!
    await store.put(DEFAULT_SNAPSHOT_KEY, bytes.subarray(0, bytes.length - 1))
    await expect(session(store).resume()).rejects.toThrow('a truncated write?')
    const flipped = bytes.slice()
    flipped[flipped.length - 1]! ^= 1
    await store.put(DEFAULT_SNAPSHOT_KEY, flipped)
    await expect(session(store).resume()).rejects.toThrow('optimizer state does not match its hash')
  })

  describe('with a KL penalty (params.klBeta)', () => {
    const KL: GrpoParams = { ...GRPO, klBeta: 0.1 }
    const klSteps = async (trainer: ReturnType<typeof session>, from: number, to: number) => {
      const results: TrainerStepResult[] = []
      for (let n = from; n < to; n++) results.push(await trainer.step(groupsFor(n), KL))
      return results
    }
    const snapshotSize = (store: MemoryBlobStore) => store.entries.get(DEFAULT_SNAPSHOT_KEY)!.length

    it('steps against the weights it started from, as grpoStep with their log-probs does', async () => {
      const trainer = session()
      await trainer.init(START)
      const [one, two] = await klSteps(trainer, 0, 2)
      const reference = initParams(TINY_CONFIG, SEED)
      let state = initTrainState(TINY_CONFIG, reference)
      const direct = [0, 1].map((n) => {
        const batch = buildRolloutBatch(groupsFor(n), PAD, TINY_CONFIG.maxSeqLen)
        const ref = tokenLogProbsOf(TINY_CONFIG, reference, batch)
        const result = grpoStep(TINY_CONFIG, state, batch, undefined, grpoConfig(KL), undefined, ref)
        state = result.state
        return result
      })
      expect(two!.status.weightsHash).toBe(weightsHash(TINY_CONFIG, direct[1]!.state.params))
      // the first step starts at the reference: KL 0; the second has moved away from it
      expect(one!.kl).toBe(0)
      expect(two!.kl).toBe(toFloat(direct[1]!.kl!)[0])
      expect(two!.kl).toBeGreaterThan(0)
      expect(two!.receipt.body.params).toEqual({ ...KL })
      const { receipt, inputs } = await signPrepared(two!.receipt, await generateKeyPair('Ed25519'))
      expect(await verify(receipt, inputs, kernelsHash)).toEqual({ ok: true })
    })

    it('keeps the reference in the snapshot, so a reload resumes exactly', async () => {
      const straight = session()
      await straight.init(START)
      const uninterrupted = await klSteps(straight, 0, 3)

      const store = new MemoryBlobStore()
      const first = session(store)
      await first.init(START)
      const atStart = snapshotSize(store)
      await klSteps(first, 0, 2)
      // the reference checkpoint rides along once it differs from the weights
      const checkpointBytes = writeCheckpoint(TINY_CONFIG, initParams(TINY_CONFIG, SEED)).length
      expect(snapshotSize(store)).toBeGreaterThanOrEqual(atStart + checkpointBytes)
      const reloaded = session(store)
      await reloaded.resume()
      const [third] = await klSteps(reloaded, 2, 3)
      expect(third!.status).toEqual(uninterrupted[2]!.status)
      expect(third!.kl).toBe(uninterrupted[2]!.kl)
      expect(third!.receipt.inputs).toEqual(uninterrupted[2]!.receipt.inputs)
    })

    it('stores no reference without the penalty, and then refuses a KL step rather than take another', async () => {
      const store = new MemoryBlobStore()
      const trainer = session(store)
      await trainer.init(START)
      const atStart = snapshotSize(store)
      const [plain] = await steps(trainer, 0, 1)
      expect(plain!.kl).toBeUndefined()
      expect(plain!.receipt.body.params).not.toHaveProperty('klBeta')
      expect(snapshotSize(store)).toBeLessThan(atStart + 64)
      await expect(trainer.step(groupsFor(1), KL)).rejects.toThrow(
        'needs the weights this trainer started from, and its saved state no longer has them',
      )
      expect(trainer.status!.policyVersion).toBe(1)
    })

    it('after a reload before its first step, takes the reference from the saved weights', async () => {
      const store = new MemoryBlobStore()
      await session(store).init(START)
      const reloaded = session(store)
      await reloaded.resume()
      const [one] = await klSteps(reloaded, 0, 1)
      expect(one!.kl).toBe(0)
    })
  })
})
