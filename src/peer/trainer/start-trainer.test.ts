// A tab's trainer on (re)load: its saved trainer only when that one trains this model from this
// model's weights; anything else starts fresh from the model's checkpoint.
import { describe, expect, it } from 'vitest'
import { genesis } from '../../core/protocol/hash-chain.ts'
import type { TrainerReady, TrainerStart } from './trainer-session.ts'
import { startTrainer } from './start-trainer.ts'

const TINY = 'a'.repeat(64)
const NEXT = 'b'.repeat(64)
const model = {
  modelId: 'tabswarm-tiny',
  checkpoint: new Uint8Array([1, 2, 3]),
  eosId: 511,
  weightsHash: NEXT,
}

function savedTrainer(startWeightsHash: string | undefined, modelId = 'tabswarm-tiny'): TrainerReady {
  return {
    status: {
      modelId,
      policyVersion: 56,
      weightsHash: 'c'.repeat(64),
      chain: genesis(startWeightsHash ?? TINY),
      ...(startWeightsHash === undefined ? {} : { startWeightsHash }),
    },
    checkpoint: new Uint8Array([9]),
  }
}

function trainer(saved: TrainerReady | undefined | Error) {
  const inits: { start: TrainerStart; key?: string }[] = []
  return {
    inits,
    resume: async () => {
      if (saved instanceof Error) throw saved
      return saved
    },
    init: async (start: TrainerStart, key?: string) => {
      inits.push({ start, key })
      return savedTrainer(NEXT)
    },
  }
}

describe('the trainer a tab learns with', () => {
  it('resumes the saved trainer of this model, started from these weights', async () => {
    const saved = savedTrainer(NEXT)
    const t = trainer(saved)
    expect(await startTrainer(t, model, 'peerA')).toBe(saved)
    expect(t.inits).toEqual([])
  })

  it("starts fresh over a saved trainer of another model's weights under the same name", async () => {
    // the peer trained the tiny model's swarm, then opened one that trains the next model (both
    // named tabswarm-tiny, one architecture): its tiny weights must not be trained as the next model
    const t = trainer(savedTrainer(TINY))
    const ready = await startTrainer(t, model, 'peerA')
    expect(ready.status.startWeightsHash).toBe(NEXT)
    expect(t.inits).toEqual([
      {
        start: { modelId: 'tabswarm-tiny', padId: 511, checkpoint: model.checkpoint },
        key: 'tabswarm-trainer-state-peerA',
      },
    ])
  })

  it('starts fresh over another model, or a damaged or missing snapshot; takes an old one at its name', async () => {
    for (const saved of [savedTrainer(NEXT, 'tabswarm-micro'), new Error('damaged'), undefined]) {
      const t = trainer(saved)
      await startTrainer(t, model, 'peerA')
      expect(t.inits).toHaveLength(1)
    }
    // saved before trainers recorded the weights they started from: nothing says otherwise
    const old = savedTrainer(undefined)
    const t = trainer(old)
    expect(await startTrainer(t, model, 'peerA')).toBe(old)
  })
})
