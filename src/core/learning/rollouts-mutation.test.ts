// Seeded mutations of rollouts bodies through the inbox and runRound: groups of each sender's own draw
// with their fields mutated (numbers at their limits, unknown families, kinds and difficulties, huge
// and empty arrays, 1e999). No round fails, and every group a round refuses has one REFUSAL reason.
import { describe, expect, it } from 'vitest'
import { CODE_TEMPLATES } from '../tasks/code-templates.ts'
import { SeededRandom } from '../tasks/seeded-random.ts'
import { learningCells } from './learning-config.ts'
import { createMemoryHub } from './memory-comm.ts'
import { createRoundInbox } from './round-inbox.ts'
import { freeSlots, roundTasks, type RoundDraw } from './round-tasks.ts'
import {
  MAX_COMPLETION_CHARS,
  MAX_COMPLETION_TOKENS,
  MAX_GROUPS_PER_MESSAGE,
  MAX_TOKEN_ID,
  validateRolloutsBody,
  type RolloutGroup,
} from '../protocol/rollouts.ts'
import { chars, standInPolicy } from './stand-in-policy.ts'
import { DROPPED } from './drop-log.ts'
import { REFUSAL, runRound, type PeerContext } from './swarm-round.ts'
import { createTaskJudge } from './task-judge.ts'
import { MAX_TASK_SEED, taskFromRef, type TaskRef } from '../protocol/task-ref.ts'
import { SMALL_LEARNING } from './small-learning.ts'

const SWARM_ID = 'm'.repeat(64)
const ROUNDS = 50
/** schema-valid bodies per round (each from its own sender): 1,000 in all */
const SENDERS_PER_ROUND = 20
const learning = SMALL_LEARNING
const judge = createTaskJudge(learning.sampling.maxNewTokens)
const random = new SeededRandom('tabswarm/test/rollouts-mutation')

const hex = () => Array.from({ length: 64 }, () => random.int(0, 15).toString(16)).join('')
const completion = (text: string) => ({ text, tokenIds: chars(text) })

/** Every way a field is mutated; each keeps the body's JSON shape, most keep it schema-valid. */
const MUTATIONS: ((g: RolloutGroup) => void)[] = [
  (g) => void (g.taskId = hex()),
  (g) => void (g.task.kind = g.task.kind === 'code' ? 'reasoning' : 'code'),
  (g) => void (g.task.family = 'x'.repeat(random.int(1, 64))),
  (g) => void (g.task = { ...g.task, kind: 'code', family: random.pick(CODE_TEMPLATES).name }),
  (g) => void (g.task.family = random.pick(learning.sources).family),
  (g) => void (g.task.difficulty = random.pick([1, 2, 3, 4, 5] as const)),
  (g) => void (g.task.seed = random.pick([0, MAX_TASK_SEED, random.nextUint32()])),
  (g) => void (g.completions[random.int(0, 1)] = completion('')),
  (g) => void (g.completions[random.int(0, 1)] = completion('x'.repeat(MAX_COMPLETION_CHARS))),
  (g) => void (g.completions[random.int(0, 1)]!.text = '<answer>7</answer>'),
  (g) => void (g.completions[random.int(0, 1)]!.tokenIds = []),
  (g) => void (g.completions[random.int(0, 1)]!.tokenIds = [0, MAX_TOKEN_ID]),
  (g) =>
    void (g.completions[random.int(0, 1)]!.tokenIds = Array.from({ length: MAX_COMPLETION_TOKENS }, () =>
      random.int(0, MAX_TOKEN_ID),
    )),
  // consistent tokens, longer than the model's context after the prompt
  (g) => void (g.completions[random.int(0, 1)] = completion('9'.repeat(MAX_COMPLETION_TOKENS))),
  (g) =>
    void (g.rewards[random.int(0, 1)] = random.pick([
      0,
      -0,
      1,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MIN_VALUE,
      g.rewards[0]! + 1e-12,
    ])),
  // the schema refuses these: a number that parses to Infinity, and arrays of the wrong size
  (g) => void (g.rewards[random.int(0, 1)] = JSON.parse('1e999') as number),
  (g) => void (g.rewards = []),
  (g) => void (g.completions = [...g.completions, ...g.completions]),
  (g) => void (g.policyVersion = random.pick([0, Number.MAX_SAFE_INTEGER])),
]

/** Each sender's draw of a round, computed once for all its groups. */
const draws = new Map<string, TaskRef[]>()
function drawOf(from: string, round: number): TaskRef[] {
  const spec: RoundDraw = {
    swarmId: SWARM_ID,
    round,
    peerId: from,
    tasksPerRound: learning.tasksPerRound,
    cells: learningCells(learning),
  }
  const key = `${from}/${round}`
  if (!draws.has(key))
    draws.set(
      key,
      roundTasks(
        spec,
        Array.from({ length: freeSlots(spec) }, () => random.pick(spec.cells)),
      ),
    )
  return draws.get(key)!
}

/** A group for the k-th task of `from`'s draw, with our rewards, then 1–3 mutations. */
async function mutatedGroup(from: string, round: number, k: number): Promise<RolloutGroup> {
  const draw = drawOf(from, round)
  const ref = draw[k % draw.length]!
  const task = taskFromRef(ref)
  const completions = ['<answer>0</answer>', '<answer>1</answer>'].map(completion)
  const rewards = await Promise.all(completions.map((c) => judge.score(task, c, true)))
  const group: RolloutGroup = { taskId: task.id, task: { ...ref }, completions, rewards, policyVersion: 0 }
  for (let m = random.int(1, 3); m > 0; m--) random.pick(MUTATIONS)(group)
  return group
}

describe('rollouts bodies mutated with a seeded RNG', () => {
  it('through the inbox and runRound: no round fails, every refused group has a reason', async () => {
    const hub = createMemoryHub()
    const comm = hub.join('receiver')
    const ctx: PeerContext = {
      swarmId: SWARM_ID,
      comm,
      inbox: createRoundInbox(comm, learning.groupSize),
      learning,
      policy: Object.assign(standInPolicy(), { maxSeqLen: 256 }),
      score: judge.score,
      windowClosed: async () => {},
    }
    const reasons = new Set<string>(Object.values(REFUSAL))
    const dropReasons = new Set<string>(Object.values(DROPPED))
    const seen = new Map<string, number>()
    let valid = 0
    let invalid = 0
    let schemaDrops = 0
    for (let round = 0; round < ROUNDS; round++) {
      // every sender its own identity, until the round has its share of schema-valid bodies
      for (let s = 0, validBefore = valid; valid - validBefore < SENDERS_PER_ROUND; s++) {
        const from = `mutant-${round}-${s}`
        const count = random.pick([1, 2, 3, MAX_GROUPS_PER_MESSAGE])
        const groups = await Promise.all(
          Array.from({ length: count }, (_, k) => mutatedGroup(from, round, k)),
        )
        // judged as it arrives: through JSON, as on the wire
        const wire: unknown = JSON.parse(JSON.stringify({ groups }))
        if (typeof validateRolloutsBody(wire, learning.groupSize) === 'string') invalid++
        else valid++
        await hub.join(from).publishRollouts(round, { groups })
      }
      const pooled = ctx.inbox.pool(round).groups().length
      const report = await runRound(ctx, round)
      expect(report.groupsHeard + report.groupsRefused).toBe(pooled)
      const why = Object.values(report.refusedWhy ?? {}).flatMap((byReason) => Object.entries(byReason))
      // judged refusals carry a REFUSAL reason, what the inbox dropped before judging a DROPPED one
      const judged = why.filter(([reason]) => !dropReasons.has(reason))
      for (const [reason, n] of judged) {
        expect(reasons).toContain(reason)
        seen.set(reason, (seen.get(reason) ?? 0) + n)
      }
      expect(judged.reduce((sum, [, n]) => sum + n, 0)).toBe(report.groupsRefused)
      const dropped = why.filter(([reason]) => dropReasons.has(reason))
      expect(dropped.reduce((sum, [, n]) => sum + n, 0)).toBe(report.groupsDropped)
      schemaDrops += dropped.filter(([r]) => r === DROPPED.schema).reduce((sum, [, n]) => sum + n, 0)
      expect(report.trainedOn.local).toBe(learning.sapo.localGroups)
    }
    expect(valid).toBeGreaterThanOrEqual(1_000)
    // every schema-invalid body counted against the identity that sent it
    expect(schemaDrops).toBe(invalid)
    // the mutations reach every check after the schema's
    expect([...seen.keys()].sort()).toEqual([...reasons].filter((r) => r !== REFUSAL.judge).sort())
    // over 1,000 bodies, each group's draw recomputed from its sender's slots: ~20 s on a busy shared core
  }, 60_000)
})
