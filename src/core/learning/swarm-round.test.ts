// The round loop with in-memory sharing and a stand-in policy (characters as tokens, a fixed answer per
// sample): what is published, heard, refused and trained on.
import { describe, expect, it } from 'vitest'
import { CODE_TEMPLATES } from '../tasks/code-templates.ts'
import { generateCodeTask } from '../tasks/generate-code-task.ts'
import { scoreReasoning } from '../tasks/score-completion.ts'
import type { ReasoningTask } from '../tasks/task.ts'
import { isInformative } from './grpo-advantages.ts'
import { chooseCells, EMPTY_CURRICULUM } from './curriculum.ts'
import { learningCells } from './learning-config.ts'
import { SMALL_LEARNING } from './small-learning.ts'
import { createMemoryHub } from './memory-comm.ts'
import type { TokenizedGroup } from './tokenized-group.ts'
import { createRoundInbox } from './round-inbox.ts'
import { DROPPED } from './drop-log.ts'
import { MAX_GROUPS_PER_SENDER } from './rollout-pool.ts'
import { cellKey, freeSlots, roundTasks, slotSeed, type Cell, type RoundDraw } from './round-tasks.ts'
import type { RolloutGroup } from '../protocol/rollouts.ts'
import { chars, standInPolicy } from './stand-in-policy.ts'
import { CLAIM_TOLERANCE, REFUSAL, runRound, type PeerContext, type Scorer } from './swarm-round.ts'
import { createTaskJudge } from './task-judge.ts'
import { refOfTask, taskFromRef, type TaskRef } from '../protocol/task-ref.ts'

const score: Scorer = async (task, c) =>
  scoreReasoning(task as ReasoningTask, c.text, c.tokenIds.length).reward.total

const SWARM_ID = 's'.repeat(64)
// a KL term pulls every token toward the reference, so the step trains every group of the batch
const WITH_KL = { ...SMALL_LEARNING, grpo: { ...SMALL_LEARNING.grpo, klBeta: 0.1 } }

const CELLS = learningCells(SMALL_LEARNING)
const drawSpec = (peerId: string, round: number): RoundDraw => ({
  swarmId: SWARM_ID,
  round,
  peerId,
  tasksPerRound: SMALL_LEARNING.tasksPerRound,
  cells: CELLS,
})

/** The tasks of `peerId`'s own draw in `round`: its free slots as a peer with no history fills them. */
const drawOf = (peerId: string, round: number, chosen?: readonly Cell[]) => {
  const spec = drawSpec(peerId, round)
  const count = freeSlots(spec)
  return roundTasks(spec, chosen ?? chooseCells(EMPTY_CURRICULUM, { ...spec, count, groupSize: 2 }))
}

/** A group for a task (the first of `from`'s own draw in `round` by default), with these texts and our rewards. */
async function drawnGroup(
  from: string,
  round: number,
  texts: readonly string[],
  ref = drawOf(from, round)[0]!,
): Promise<RolloutGroup> {
  const task = taskFromRef(ref)
  const completions = texts.map((text) => ({ text, tokenIds: chars(text) }))
  const rewards = await Promise.all(completions.map((c) => score(task, c, true)))
  return { taskId: task.id, task: ref, completions, rewards, policyVersion: 0 }
}

function swarm(n: number, learning = SMALL_LEARNING) {
  const hub = createMemoryHub()
  let release!: () => void
  const closed = new Promise<void>((r) => (release = r))
  const trained: TokenizedGroup[][][] = []
  const peers: PeerContext[] = Array.from({ length: n }, (_, i) => {
    const comm = hub.join(`peer${i}`)
    trained.push([])
    return {
      swarmId: SWARM_ID,
      comm,
      inbox: createRoundInbox(comm, learning.groupSize),
      learning,
      policy: standInPolicy((groups) => trained[i]!.push([...groups])),
      score,
      windowClosed: () => closed,
    }
  })
  return { hub, peers, trained, closeWindow: () => release() }
}

describe('runRound', () => {
  it('publishes its groups, trains on 2 own + 2 heard ones, and reports the round', async () => {
    // with a KL term every group of the batch pulls its tokens toward the reference, so all four train
    const { peers, trained, closeWindow } = swarm(3, WITH_KL)
    const reports = peers.map((p) => runRound(p, 0))
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    const done = await Promise.all(reports)
    for (const [i, report] of done.entries()) {
      expect(report).toMatchObject({
        round: 0,
        groupsPublished: 2,
        groupsHeard: 4,
        groupsRefused: 0,
        trainedOn: { local: 2, external: 2 },
        loss: 0.5,
        gradNorm: 0.75,
        weightsHash: 'w1',
        policyVersion: 1,
      })
      expect(report.swarmReward).toBeDefined()
      // the groups that teach: rewards not all equal
      expect(report.trainedOn.informative).toBe(
        trained[i]![0]!.filter((g) => isInformative(g.rewards)).length,
      )
      // every other peer is accounted for by name, none refused
      expect(Object.keys(report.peerRewards).sort()).toEqual(
        ['peer0', 'peer1', 'peer2'].filter((_, j) => j !== i),
      )
      expect(report.refusedFrom).toEqual({})
      expect(report.groupsIgnored).toBe(0)
      expect(trained[i]![0]).toHaveLength(4)
      // every trained completion is a complete group of G with the receiver's rewards
      for (const g of trained[i]![0]!) expect(g.rewards).toHaveLength(2)
      // each trained group names its sender and task (the receipt's trainedGroups): own first, then heard
      const origins = trained[i]![0]!.map((g) => g.origin?.from)
      expect(origins.slice(0, 2)).toEqual([`peer${i}`, `peer${i}`])
      for (const from of origins.slice(2)) expect(from).toMatch(new RegExp(`^peer[^${i}]$`))
      for (const g of trained[i]![0]!) expect(g.origin?.taskId).toMatch(/^[0-9a-f]{64}$/)
    }
  })

  it('refuses garbage, forged task ids and tokens that do not spell their text', async () => {
    const { hub, peers, trained, closeWindow } = swarm(1, WITH_KL)
    const attacker = hub.join('mallory')
    const report = runRound(peers[0]!, 3)
    // a task of the attacker's own draw, so the checks after the draw's are the ones that refuse
    const ref = drawOf('mallory', 3)[0]!
    const honest = {
      taskId: '',
      task: ref,
      completions: [
        { text: '<answer>1</answer>', tokenIds: chars('<answer>1</answer>') },
        { text: '<answer>2</answer>', tokenIds: chars('<answer>2</answer>') },
      ],
      rewards: [1.2, 1.2],
      policyVersion: 0,
    }
    const realId = taskFromRef(ref).id
    await attacker.publishRollouts(3, { groups: [{ ...honest, taskId: 'f'.repeat(64) }] } as never)
    await attacker.publishRollouts(3, {
      groups: [
        {
          ...honest,
          taskId: realId,
          completions: [honest.completions[0]!, { text: '<answer>2</answer>', tokenIds: [1] }],
        },
      ],
    } as never)
    await attacker.publishRollouts(3, { groups: 'nope' } as never)
    await attacker.publishRollouts(9, { groups: [{ ...honest, taskId: realId }] } as never)
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    const r = await report
    expect(r.groupsHeard).toBe(0)
    expect(r.groupsRefused).toBe(2)
    // the schema's refusal is the sender's doing and charged; a message for another round is counted only
    expect(r.groupsDropped).toBe(2)
    expect(r.refusedFrom).toEqual({ mallory: 3 })
    expect(r.refusedWhy).toEqual({
      mallory: {
        [REFUSAL.task]: 1,
        [REFUSAL.tokens]: 1,
        [DROPPED.schema]: 1,
        [DROPPED['wrong-round']]: 1,
      },
    })
    expect(r.peerRewards).toEqual({})
    expect(r.trainedOn).toMatchObject({ local: 2, external: 0 })
    expect(r.trainedOn.informative).toBe(trained[0]![0]!.filter((g) => isInformative(g.rewards)).length)
  })

  it('refuses a group whose claimed rewards are not our verifiers’ and accepts one within CLAIM_TOLERANCE', async () => {
    const { hub, peers, trained, closeWindow } = swarm(1)
    const judged: [string, readonly number[] | undefined, string | undefined][] = []
    peers[0] = {
      ...peers[0]!,
      onJudged: (g, j) =>
        judged.push([g.from, 'rewards' in j ? j.rewards : undefined, 'refusal' in j ? j.refusal : undefined]),
    }
    const report = runRound(peers[0], 3)
    /** `from`'s group for its own first task: a wrong answer and the right one, with these claims */
    const claimed = async (from: string, claims: (ours: number[]) => number[]) => {
      const ref = drawOf(from, 3)[0]!
      const task = taskFromRef(ref) as ReasoningTask
      const completions = ['<answer>?</answer>', `<answer>${task.answer}</answer>`].map((text) => ({
        text,
        tokenIds: chars(text),
      }))
      const ours = await Promise.all(completions.map((c) => score(task, c, true)))
      // the two completions score differently, so a claim can be wrong on one of them only
      expect(ours[0]).not.toBe(ours[1])
      const group = { taskId: task.id, task: ref, completions, rewards: claims(ours), policyVersion: 0 }
      await hub.join(from).publishRollouts(3, { groups: [group] })
      return { task, completions, ours }
    }
    await claimed('inflator', (ours) => [ours[0]!, ours[0]! + 0.5])
    await claimed('rounder', (ours) => [ours[0]!, ours[1]! + 1e-6])
    const { task, completions, ours } = await claimed('honest', (ours) => [
      ours[0]!,
      ours[1]! + CLAIM_TOLERANCE / 2,
    ])
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    const r = await report
    expect(r.groupsRefused).toBe(2)
    expect(r.refusedFrom).toEqual({ inflator: 1, rounder: 1 })
    expect(r.refusedWhy).toEqual({ inflator: { [REFUSAL.rewards]: 1 }, rounder: { [REFUSAL.rewards]: 1 } })
    expect(r.groupsHeard).toBe(1)
    expect(Object.keys(r.peerRewards)).toEqual(['honest'])
    expect(judged).toEqual([
      ['inflator', undefined, REFUSAL.rewards],
      ['rounder', undefined, REFUSAL.rewards],
      ['honest', ours, undefined],
    ])
    // the honest group is the one external group trained on, with our rewards, not its claim
    expect(r.trainedOn.external).toBe(1)
    const external = trained[0]![0]!.filter((g) => g.promptIds.join() === chars(task.prompt).join())
    expect(external).toEqual([
      {
        promptIds: chars(task.prompt),
        completions: completions.map((c) => c.tokenIds),
        rewards: ours,
        origin: { from: 'honest', taskId: task.id },
      },
    ])
  })

  it('leaves out the groups of ignored senders and tells each judged group to onJudged', async () => {
    const { peers, closeWindow } = swarm(3)
    const judged: [string, readonly number[] | undefined][] = []
    peers[0] = {
      ...peers[0]!,
      ignored: (id) => id === 'peer1',
      onJudged: (g, j) => judged.push([g.from, 'rewards' in j ? j.rewards : undefined]),
    }
    const reports = peers.map((p) => runRound(p, 0))
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    const r = await reports[0]!
    expect(r.groupsIgnored).toBe(2)
    expect(r.groupsHeard).toBe(2)
    expect(Object.keys(r.peerRewards)).toEqual(['peer2'])
    expect(r.peerRewards.peer2!.completions).toBe(4)
    expect(judged.map(([from]) => from)).toEqual(['peer2', 'peer2'])
    expect(judged.every(([, rewards]) => rewards?.length === 2)).toBe(true)
  })
})

describe('runRound and a policy that samples in batches', () => {
  it("asks sampleMany once for the round's prompts, with the requests it would make one by one", async () => {
    const roundWith = async (batched: boolean) => {
      const { peers, trained, closeWindow } = swarm(1, WITH_KL)
      const policy = peers[0]!.policy
      const asked: { promptIds: readonly number[]; samples: number; key: string }[][] = []
      const sample = policy.sample
      if (batched)
        policy.sampleMany = async (requests) => {
          asked.push([...requests])
          return Promise.all(requests.map((r) => sample(r.promptIds, r.samples, r.key)))
        }
      else
        policy.sample = async (promptIds, samples, key) => {
          asked.push([{ promptIds, samples, key }])
          return sample(promptIds, samples, key)
        }
      closeWindow()
      const report = await runRound(peers[0]!, 3)
      return { asked, report, trained: trained[0] }
    }
    const [one, many] = [await roundWith(false), await roundWith(true)]
    expect(many.asked).toHaveLength(1)
    expect(one.asked).toHaveLength(SMALL_LEARNING.tasksPerRound)
    expect(many.asked[0]).toEqual(one.asked.flat())
    expect(many.trained).toEqual(one.trained)
    expect(many.report.groupsPublished).toBe(one.report.groupsPublished)
  })
})

describe('runRound and groups it cannot judge', () => {
  it('refuses a code-task group in a reasoning-only swarm and trains on', async () => {
    const { hub, peers, closeWindow } = swarm(1)
    peers[0] = { ...peers[0]!, score: createTaskJudge(SMALL_LEARNING.sampling.maxNewTokens).score }
    const report = runRound(peers[0], 3)
    const task = generateCodeTask(CODE_TEMPLATES[0]!.name, 1, 7)
    const text = 'def solve(n):\n    return 0'
    await hub.join('mallory').publishRollouts(3, {
      groups: [
        {
          taskId: task.id,
          task: refOfTask(task),
          completions: [0, 1].map(() => ({ text, tokenIds: chars(text) })),
          rewards: [0, 0],
          policyVersion: 0,
        },
      ],
    })
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    const r = await report
    expect(r.refusedWhy).toEqual({
      mallory: { 'its task is not one of the families, kinds and difficulties this swarm draws': 1 },
    })
    expect(r.trainedOn).toMatchObject({ local: 2, external: 0 })
  })

  it('refuses a group our verifiers fail on, counts it against its sender, and judges the others', async () => {
    const { hub, peers, closeWindow } = swarm(1)
    const crashing: Scorer = async (task, c, eos) => {
      if (c.text.includes('boom')) throw new Error('the verifier crashed')
      return score(task, c, eos)
    }
    peers[0] = { ...peers[0]!, score: crashing }
    const report = runRound(peers[0], 3)
    const good = await drawnGroup('honest', 3, ['<answer>1</answer>', '<answer>2</answer>'])
    const bad = await drawnGroup('mallory', 3, ['<answer>1</answer>', '<answer>1</answer>'])
    bad.completions[1] = { text: '<answer>boom</answer>', tokenIds: chars('<answer>boom</answer>') }
    await hub.join('mallory').publishRollouts(3, { groups: [bad] })
    await hub.join('honest').publishRollouts(3, { groups: [good] })
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    const r = await report
    expect(r.refusedWhy).toEqual({ mallory: { 'our verifiers could not judge it': 1 } })
    expect(r.refusedFrom).toEqual({ mallory: 1 })
    expect(Object.keys(r.peerRewards)).toEqual(['honest'])
    expect(r.trainedOn).toMatchObject({ local: 2, external: 1 })
  })
})

describe('runRound and groups dropped before it judges them', () => {
  it('counts them against their senders by reason, and charges only what a sender controls', async () => {
    const { hub, peers, closeWindow } = swarm(1)
    const texts = ['<answer>0</answer>', '<answer>1</answer>']
    const report = runRound(peers[0]!, 4)
    // more groups than a peer draws tasks in a round: the sender's doing
    const flood = await Promise.all(
      Array.from({ length: MAX_GROUPS_PER_SENDER + 3 }, (_, i) =>
        drawnGroup('mallory', 4, texts, { ...drawOf('mallory', 4)[0]!, seed: i }),
      ),
    )
    await hub.join('mallory').publishRollouts(4, { groups: flood.slice(0, 16) })
    await hub.join('mallory').publishRollouts(4, { groups: flood.slice(16) })
    // sent after the window closed: an honest slow peer's fate too, so counted, not charged
    peers[0]!.inbox.pool(4).close()
    await hub.join('slow').publishRollouts(4, { groups: [await drawnGroup('slow', 4, texts)] })
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    const r = await report
    expect(r.refusedWhy?.mallory?.[DROPPED['sender-full']]).toBe(3)
    expect(r.refusedFrom.mallory).toBeGreaterThanOrEqual(3)
    expect(r.refusedWhy?.slow).toEqual({ [DROPPED.closed]: 1 })
    expect(r.refusedFrom.slow).toBeUndefined()
    expect(r.groupsDropped).toBe(4)
  })
})

describe('runRound and task shadowing', () => {
  it("accepts none of the groups an attacker pre-publishes for other peers' tasks", async () => {
    const { hub, peers, closeWindow } = swarm(2)
    // a round ahead (the most the inbox holds early), the right answers (our verifiers' rewards) for every task of both peers
    const texts = ['<answer>0</answer>', '<answer>1</answer>']
    const shadows = await Promise.all(
      ['peer0', 'peer1'].flatMap((id) => drawOf(id, 1).map((ref) => drawnGroup('mallory', 1, texts, ref))),
    )
    await hub.join('mallory').publishRollouts(1, { groups: shadows })
    const reports = peers.map((p) => runRound(p, 1))
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    for (const [i, r] of (await Promise.all(reports)).entries()) {
      expect(Object.keys(r.peerRewards)).toEqual([`peer${1 - i}`])
      expect(r.refusedWhy).toEqual({ mallory: { "its task is not in its sender's draw for this round": 4 } })
      expect(r.trainedOn).toMatchObject({ local: 2, external: 2 })
    }
  })
})

describe("a sender's draw, recomputed from gossip alone", () => {
  it("accepts the groups of a sender's curriculum choices, and refuses a group outside its draw", async () => {
    const { hub, peers, closeWindow } = swarm(1)
    // the sender's curriculum is private; what the receiver sees is its signed groups' declared cells
    const chosen: Cell[] = [{ kind: 'reasoning', family: 'list-sorting', difficulty: 2 }]
    const [explore, free] = drawOf('carol', 5, chosen) as [TaskRef, TaskRef]
    expect(cellKey(free)).toBe('reasoning/list-sorting/2')
    const texts = ['<answer>0</answer>', '<answer>1</answer>']
    const other = CELLS.find((c) => cellKey(c) !== cellKey(free) && cellKey(c) !== cellKey(explore))!
    const honest = [await drawnGroup('carol', 5, texts, explore), await drawnGroup('carol', 5, texts, free)]
    const outside = [
      // the free slot's seed declared at another cell: the seed is derived from the cell, so not drawn
      await drawnGroup('carol', 5, texts, { ...free, ...other, seed: free.seed }),
      // a second group for the free slot, from another cell the sender might have chosen: one per slot
      await drawnGroup('carol', 5, texts, drawOf('carol', 5, [other])[1]!),
      // the exploration slot filled from a cell other than the rotation's
      await drawnGroup('carol', 5, texts, { ...other, seed: slotSeed(drawSpec('carol', 5), 0, other) }),
    ]
    const report = runRound(peers[0]!, 5)
    await hub.join('carol').publishRollouts(5, { groups: [...honest, ...outside] })
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    const r = await report
    expect(r.peerRewards.carol?.completions).toBe(4)
    expect(r.refusedWhy).toEqual({ carol: { "its task is not in its sender's draw for this round": 3 } })
  })
})

describe('runRound and what it trains', () => {
  it('refuses a group whose completions would be cut at the model context, so it trains what it judged', async () => {
    const { hub, peers, trained, closeWindow } = swarm(1, WITH_KL)
    const ref = drawOf('mallory', 3)[0]!
    const room = 20
    // the model's context leaves `room` tokens after the prompt of mallory's task
    const maxSeqLen = chars(taskFromRef(ref).prompt).length + room
    peers[0] = { ...peers[0]!, policy: Object.assign(peers[0]!.policy, { maxSeqLen }) }
    const report = runRound(peers[0], 3)
    // the answer fits; what follows it would be cut off, so the judged text is not the trained one
    const long = `<answer>1</answer>${' and then some more words'.repeat(2)}`
    expect(long.length).toBeGreaterThan(room)
    await hub.join('mallory').publishRollouts(3, { groups: [await drawnGroup('mallory', 3, [long, long])] })
    await new Promise((r) => setTimeout(r, 10))
    closeWindow()
    const r = await report
    expect(r.refusedWhy).toEqual({
      mallory: { "its completions run past the model's context, so we would not train on what we judged": 1 },
    })
    expect(trained[0]![0]!.every((g) => g.completions.every((c) => c.length <= room))).toBe(true)
  })

  it('steps on the groups whose rewards differ only, and takes no step when none do', async () => {
    // mallory's group: one right answer and one wrong, a signal; the stand-in's own groups answer 0 and 1
    const ref = drawOf('mallory', 5)[0]!
    const answer = (taskFromRef(ref) as ReasoningTask).answer
    const run = async (texts: readonly string[]) => {
      const { hub, peers, trained, closeWindow } = swarm(1)
      const report = runRound(peers[0]!, 5)
      await hub.join('mallory').publishRollouts(5, { groups: [await drawnGroup('mallory', 5, texts, ref)] })
      await new Promise((r) => setTimeout(r, 10))
      closeWindow()
      return { r: await report, steps: trained[0]! }
    }
    const mixed = await run([`<answer>${answer}</answer>`, '<answer>no</answer>'])
    expect(mixed.r.trainedOn.external).toBe(1)
    const batch = mixed.r.trainedOn.local + mixed.r.trainedOn.external
    expect(mixed.r.trainedOn.informative).toBeGreaterThanOrEqual(1)
    expect(mixed.r.trainedOn.informative).toBeLessThan(batch)
    expect(mixed.steps).toHaveLength(1)
    expect(mixed.steps[0]!.every((g) => isInformative(g.rewards))).toBe(true)
    expect(mixed.steps[0]!).toHaveLength(mixed.r.trainedOn.informative!)
    expect(mixed.steps[0]!.some((g) => g.origin?.from === 'mallory')).toBe(true)

    // the same round with mallory's group agreeing: only the stand-in's own groups could differ
    const same = await run(['<answer>no</answer>', '<answer>no</answer>'])
    if (same.r.trainedOn.informative === 0) {
      expect(same.steps).toHaveLength(0)
      expect(same.r).toMatchObject({ loss: undefined, weightsHash: undefined, policyVersion: 0 })
    } else expect(same.steps[0]!).toHaveLength(same.r.trainedOn.informative!)
  })
})
