// What the round-attack e2e and bench/hostile.ts share: the micro swarm they attack (15 s rounds, no
// held-out evaluation), the attack's target description (the swarm's draw and the model's tokenizer),
// and the wait until every tab is attackable — its peer id shown, subscribed as the attacker sees it,
// and one full round behind it, so the tabs have earned each other's trust as honest peers have.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { learningCells, type LearningConfig } from '../src/core/learning/learning-config.ts'
import type { HostilePeer } from './hostile-peer.ts'
import { attribute, fullRound, MICRO_LEARNING, roundsOf, until, type LearningTab } from './learning-tabs.ts'
import type { RoundAttackOptions } from './round-attack.ts'

// MICRO_LEARNING says why 15 s
export const ATTACK_ROUND_MS = 15_000
/** When each round's messages go out, after it starts: inside the collection window. */
const ATTACK_OFFSET_MS = 1_500
// no held-out evaluation within the run: it is not what is measured and it costs a round's time
export const ATTACK_LEARNING: LearningConfig = { ...MICRO_LEARNING, evalEvery: 1_000 }

const modelDir = join('public', ATTACK_LEARNING.model)
const modelConfig = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8')) as {
  max_position_embeddings: number
  eos_token_id: number
}

/** The attack on `tabs` of the swarm started at `genesisTime`, for `rounds` rounds. */
export const attackOn = (
  genesisTime: number,
  rounds: number,
  tabs: string[],
): Omit<RoundAttackOptions, 'swarmId'> => ({
  genesisTime,
  roundLengthMs: ATTACK_ROUND_MS,
  offsetMs: ATTACK_OFFSET_MS,
  rounds,
  groupSize: ATTACK_LEARNING.groupSize,
  cells: learningCells(ATTACK_LEARNING),
  tasksPerRound: ATTACK_LEARNING.tasksPerRound,
  tokenizerPath: join(modelDir, 'tokenizer.json'),
  eosId: modelConfig.eos_token_id,
  maxSeqLen: modelConfig.max_position_embeddings,
  tabs,
})

/** The tabs' peer ids, once each is subscribed to rollouts as `attacker` sees it and has run a full round. */
export async function attackableTabs(tabs: LearningTab[], attacker: HostilePeer): Promise<string[]> {
  const ids = (await Promise.all(
    tabs.map((tab) =>
      until(
        () => attribute(tab, 'header-self-id', 'title'),
        (id) => /^12D3KooW/.test(id ?? ''),
        30_000,
      ),
    ),
  )) as string[]
  await attacker.waitForSubscribers(ids, 90_000, 'rollouts')
  await until(
    () => Promise.all(tabs.map(roundsOf)),
    (all) => all.every((rows) => rows.some(fullRound)),
    8 * ATTACK_ROUND_MS,
  )
  return ids
}
