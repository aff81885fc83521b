// The learning loop on a virtual clock: two peers share in memory with a stand-in policy; what the page
// is told, what is saved, and how skipped and failed rounds are reported.
import { describe, expect, it } from 'vitest'
import { scoreReasoning } from '../tasks/score-completion.ts'
import type { ReasoningTask } from '../tasks/task.ts'
import { learningCells, type LearningConfig } from './learning-config.ts'
import { SMALL_LEARNING } from './small-learning.ts'
import {
  HEARD_PER_ROUND,
  startLearningLoop,
  type LearningHistory,
  type LearningLoopOptions,
} from './learning-loop.ts'
import { createMemoryHub } from './memory-comm.ts'
import type { LearningEvent } from '../protocol/peer-worker-messages.ts'
import { createRoundInbox } from './round-inbox.ts'
import { cellKey } from './round-tasks.ts'
import type { RoundClock } from './round-clock.ts'
import { chars, standInPolicy } from './stand-in-policy.ts'

const learning: LearningConfig = { ...SMALL_LEARNING, evalEvery: 2 }
const clock: RoundClock = { genesisTime: 0, roundLengthMs: 10_000, windowFraction: 0.6 }

/** A virtual clock shared by the peers: waiting lets every other peer run first, then jumps ahead. */
function virtualTime(start: number) {
  let t = start
  return {
    now: () => t,
    advance: (ms: number) => void (t += ms),
    waitUntil: async (time: number, signal: AbortSignal) => {
      await new Promise((r) => setTimeout(r, 1))
      if (!signal.aborted) t = Math.max(t, time)
    },
  }
}

function memoryHistory(saved?: LearningHistory) {
  const store = { saved, saves: 0 }
  return {
    store,
    history: {
      load: async () => store.saved,
      save: async (h: LearningHistory) => void ((store.saved = structuredClone(h)), store.saves++),
    },
  }
}

function peers(
  n: number,
  time: ReturnType<typeof virtualTime>,
  trainMs: (i: number) => number = () => 1_000,
  hub = createMemoryHub(),
) {
  return Array.from({ length: n }, (_, i) => {
    const comm = hub.join(`peer${i}`)
    const events: LearningEvent[] = []
    const { store, history } = memoryHistory()
    const options: LearningLoopOptions = {
      clock,
      peer: {
        swarmId: 's'.repeat(64),
        comm,
        inbox: createRoundInbox(comm, learning.groupSize),
        learning,
        policy: standInPolicy(() => time.advance(trainMs(i))),
        score: async (task, c) =>
          scoreReasoning(task as ReasoningTask, c.text, c.tokenIds.length).reward.total,
      },
      nameOf: (id) => `name of ${id}`,
      emit: (e) => events.push(e),
      history,
      evaluate: async (at) => ({ ...at, pass1: 0.25, tasks: 4 }),
      takeRoundExtras: () => ({ tokensPerSecond: 50, receiptId: 'r', chainTip: 't', stepMs: 1_000 }),
      now: time.now,
      waitUntil: time.waitUntil,
    }
    return { options, events, store }
  })
}

const rows = (events: LearningEvent[]) => events.flatMap((e) => (e.type === 'learning-round' ? [e.row] : []))

async function until(check: () => boolean) {
  for (let i = 0; i < 2_000 && !check(); i++) await new Promise((r) => setTimeout(r, 1))
  expect(check()).toBe(true)
}

describe('the learning loop', () => {
  it('runs rounds on the clock, sharing and training, and reports each one with the phases between', async () => {
    // joins 1 s into round 3: enough of its window is left
    const time = virtualTime(31_000)
    const ps = peers(2, time)
    const loops = ps.map((p) => startLearningLoop(p.options))
    await until(() => ps.every((p) => rows(p.events).length >= 3))
    loops.forEach((l) => l.stop())
    await Promise.all(loops.map((l) => l.done))
    for (const [i, p] of ps.entries()) {
      const [first, second] = rows(p.events)
      expect(first).toMatchObject({
        round: 3,
        groupsPublished: 2,
        groupsHeard: 2,
        trainedOn: { local: 2, external: 2 },
        policyVersion: 1,
        explored: 1,
        tokensPerSecond: 50,
        receiptId: 'r',
        skipped: undefined,
        startedAt: 31_000,
      })
      expect(first!.peerRewards).toHaveProperty(`peer${1 - i}`)
      expect(second).toMatchObject({ round: 4, policyVersion: 2, skipped: undefined })
      const phases = p.events.flatMap((e) => (e.type === 'learning-phase' && e.round === 4 ? [e.phase] : []))
      expect(phases).toEqual(['waiting', 'sampling', 'collecting', 'training'])
      expect(p.events).toContainEqual({
        type: 'learning-phase',
        phase: 'collecting',
        round: 4,
        roundEndsAt: 50_000,
        windowClosesAt: 46_000,
      })
      // the starting weights first (a peer with no evaluation yet, before its first round), then
      // rounds 3 and 5, which end a pair (evalEvery 2)
      const evals = p.events.flatMap((e) => (e.type === 'learning-eval' ? [e.point] : []))
      expect(evals[0]).toEqual({ round: 2, policyVersion: 0, pass1: 0.25, tasks: 4 })
      expect(evals[1]).toEqual({ round: 3, policyVersion: 1, pass1: 0.25, tasks: 4 })
      // the other's completions reach the feed, judged by us
      const heard = p.events.find((e) => e.type === 'learning-heard')
      expect(heard).toMatchObject({
        rollouts: expect.arrayContaining([
          expect.objectContaining({ from: `peer${1 - i}`, name: `name of peer${1 - i}`, round: 3 }),
        ]),
      })
      // the standing of the other peer goes along with each round
      const last = p.events.findLast((e) => e.type === 'learning-round')
      expect(last).toMatchObject({ peers: { [`peer${1 - i}`]: { rounds: expect.any(Number), score: 1 } } })
      expect(p.store.saved!.rounds.length).toBeGreaterThanOrEqual(3)
      expect(p.store.saved!.evals.length).toBeGreaterThanOrEqual(1)
    }
  })

  it('skips the rounds a slow training step overran, saying so, and starts late joiners at the next round', async () => {
    // joins 5 s into round 0 (too late: 1 s of window left); training takes 28 s
    const time = virtualTime(5_000)
    const [p] = peers(1, time, () => 28_000)
    const loop = startLearningLoop(p!.options)
    await until(() => rows(p!.events).length >= 4)
    loop.stop()
    await loop.done
    const [first, ...rest] = rows(p!.events)
    expect(first).toMatchObject({ round: 1, skipped: undefined })
    // round 1's step ends at 44 s, inside round 4's window with too little of it left
    expect(rest.slice(0, 3).map((r) => [r.round, r.skipped !== undefined])).toEqual([
      [2, true],
      [3, true],
      [4, true],
    ])
    expect(rest[0]!.skipped).toMatch(/ran past the end/)
    expect(rest[2]!.skipped).toMatch(/too little of its collection window/)
  })

  it('restores the saved history and curriculum before the first round, and reports a failing round without stopping', async () => {
    const time = virtualTime(0)
    const [p] = peers(1, time)
    // the saved curriculum has seen every cell but one always solved: its free slot goes to that one
    const [open, ...solved] = learningCells(learning)
    const saved: LearningHistory = {
      rounds: [],
      evals: [{ round: 1, policyVersion: 1, pass1: 0.5, tasks: 12 }],
      curriculum: {
        cells: Object.fromEntries(solved.map((c) => [cellKey(c), { completions: 40, successes: 40 }])),
      },
      peers: {},
    }
    p!.store.saved = saved
    p!.options.history.load = async () => saved
    let calls = 0
    const policy = p!.options.peer.policy
    p!.options.peer.policy = {
      ...policy,
      version: 0,
      sample: async (...args) =>
        calls++ === 0 ? Promise.reject(new Error('the solver crashed')) : policy.sample(...args),
    }
    const loop = startLearningLoop(p!.options)
    await until(() => rows(p!.events).length >= 2)
    loop.stop()
    await loop.done
    expect(p!.events[0]).toEqual({ type: 'learning-history', rounds: [], evals: saved.evals, peers: {} })
    // a peer that has evaluated before does not evaluate its weights again on joining
    // (it joined in round 0: a start evaluation would be "after round −1")
    const evals = p!.events.flatMap((e) => (e.type === 'learning-eval' ? [e.point.round] : []))
    expect(evals.filter((round) => round < 0)).toEqual([])
    const [failed, next] = rows(p!.events)
    expect(failed).toMatchObject({ round: 0, skipped: 'the round failed: the solver crashed', drawn: [] })
    expect(next).toMatchObject({ round: 1, skipped: undefined, explored: 1 })
    expect(next!.drawn![1]!.cell).toBe(cellKey(open!))
    // and the round's own groups went into the curriculum that is saved
    expect(p!.store.saved!.curriculum.cells[cellKey(open!)]!.completions).toBeGreaterThanOrEqual(
      learning.groupSize,
    )
    expect(p!.events).toContainEqual({
      type: 'learning-error',
      message: 'Round 0 failed (the solver crashed); the next round will try again.',
      fatal: false,
    })
  })
})

describe('the learning loop and its evaluations', () => {
  it('evaluates beside the rounds: a slow evaluation holds back no round, a failed one is told and learning goes on', async () => {
    const time = virtualTime(0)
    const [p] = peers(1, time)
    const calls: { round: number; policyVersion: number }[] = []
    let finish: (() => void) | undefined
    p!.options.evaluate = (at) => {
      calls.push(at)
      // the first (the starting weights) takes as long as the test says; the second fails
      if (calls.length === 1)
        return new Promise((resolve) => (finish = () => resolve({ ...at, pass1: 0.5, tasks: 4 })))
      if (calls.length === 2) throw new Error('the solver worker crashed')
      return Promise.resolve({ ...at, pass1: 0.75, tasks: 4 })
    }
    const loop = startLearningLoop(p!.options)
    // four rounds run while the first evaluation is still out, none skipped; the evaluations due
    // meanwhile (after rounds 1 and 3) are left out, not queued
    await until(() => rows(p!.events).length >= 4)
    expect(rows(p!.events).map((r) => r.skipped)).toEqual([undefined, undefined, undefined, undefined])
    expect(calls).toEqual([{ round: -1, policyVersion: 0 }])
    finish!()
    await until(() => p!.events.some((e) => e.type === 'learning-eval'))
    // the point is of the weights it was asked about, though four steps have run since
    expect(p!.events.find((e) => e.type === 'learning-eval')).toEqual({
      type: 'learning-eval',
      point: { round: -1, policyVersion: 0, pass1: 0.5, tasks: 4 },
    })
    await until(() => calls.length >= 3)
    await until(() => p!.store.saved!.evals.length >= 2)
    loop.stop()
    await loop.done
    expect(p!.events).toContainEqual({
      type: 'learning-error',
      message: `The held-out evaluation after round ${calls[1]!.round} failed (the solver worker crashed); the next one will try again.`,
      fatal: false,
    })
    expect(p!.events.some((e) => e.type === 'learning-error' && e.fatal)).toBe(false)
    // what is saved holds both points, in order, and the rounds run meanwhile
    expect(p!.store.saved!.evals.map((e) => e.pass1)).toEqual([0.5, 0.75])
    expect(p!.store.saved!.rounds.length).toBeGreaterThanOrEqual(5)
  })
})

describe('the learning loop and hostile groups', () => {
  it('refuses a group of an unknown task family, counts it against its sender and trains on', async () => {
    const time = virtualTime(0)
    const hub = createMemoryHub()
    const [p] = peers(1, time, () => 1_000, hub)
    const text = '<answer>1</answer>'
    await hub.join('mallory').publishRollouts(0, {
      groups: [
        {
          taskId: 'f'.repeat(64),
          task: { kind: 'reasoning', family: 'no-such-family', difficulty: 1, seed: 1 },
          completions: [0, 1].map(() => ({ text, tokenIds: chars(text) })),
          rewards: [0, 0],
          policyVersion: 0,
        },
      ],
    })
    const loop = startLearningLoop(p!.options)
    await until(() => rows(p!.events).length >= 1)
    loop.stop()
    await loop.done
    const [row] = rows(p!.events)
    expect(row).toMatchObject({ round: 0, skipped: undefined, trainedOn: { local: 2, external: 0 } })
    const why = 'its task is not one of the families, kinds and difficulties this swarm draws'
    expect(row!.refusedWhy).toEqual({ mallory: { [why]: 1 } })
    expect(p!.store.saved!.peers.mallory).toMatchObject({ refused: 1, refusedWhy: { [why]: 1 } })
    expect(p!.store.saved!.peers.mallory!.score).toBeLessThan(1)
    expect(p!.events.some((e) => e.type === 'learning-error')).toBe(false)
    // the feed shows the refused group with the reason, its prompt unknown
    const heard = p!.events.find((e) => e.type === 'learning-heard')
    expect(heard).toMatchObject({
      rollouts: [0, 1].map(() => expect.objectContaining({ from: 'mallory', prompt: '', refused: why })),
    })
  })
  it('keeps the feed for the peers that teach when fresh keys flood it with refused groups', async () => {
    const time = virtualTime(0)
    const hub = createMemoryHub()
    const [a, b] = peers(2, time, () => 1_000, hub)
    // before the honest peers publish, 24 fresh identities each send a group the swarm does not draw:
    // more refused completions than a round reports to the feed
    const text = '<answer>1</answer>'
    for (let k = 0; k < 24; k++)
      await hub.join(`fresh${k}`).publishRollouts(0, {
        groups: [
          {
            taskId: 'f'.repeat(64),
            task: { kind: 'reasoning', family: 'no-such-family', difficulty: 1, seed: k },
            completions: [0, 1].map(() => ({ text, tokenIds: chars(text) })),
            rewards: [0, 0],
            policyVersion: 0,
          },
        ],
      })
    const loops = [a!, b!].map((p) => startLearningLoop(p.options))
    await until(() => rows(a!.events).length >= 1)
    for (const loop of loops) loop.stop()
    await Promise.all(loops.map((l) => l.done))
    const [row] = rows(a!.events)
    expect(row).toMatchObject({ round: 0, groupsHeard: 2 })
    expect(Object.keys(row!.refusedWhy ?? {}).length).toBeGreaterThan(16)
    const fed = a!.events.find((e) => e.type === 'learning-heard')
    if (fed?.type !== 'learning-heard') throw new Error('no feed for round 0')
    // the other peer's 2 groups × 2 completions are there, judged; refusals fill what room is left
    expect(fed.rollouts.filter((h) => h.from === 'peer1' && h.reward !== undefined)).toHaveLength(4)
    expect(fed.rollouts.filter((h) => h.refused !== undefined).length).toBe(fed.rollouts.length - 4)
    expect(fed.rollouts.length).toBeLessThanOrEqual(HEARD_PER_ROUND)
  })
})

describe('the learning loop on a full disk', () => {
  it('keeps learning when saving the history fails, says so once, and saves again once it can', async () => {
    const time = virtualTime(0)
    const [p] = peers(1, time)
    let failing = 3
    const save = p!.options.history.save
    p!.options.history.save = async (h) => {
      if (failing-- > 0) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      await save(h)
    }
    const loop = startLearningLoop(p!.options)
    await until(() => rows(p!.events).length >= 4)
    loop.stop()
    await loop.done
    expect(rows(p!.events).every((r) => r.skipped === undefined)).toBe(true)
    // said once when saving starts failing, and withdrawn once a save succeeds
    expect(p!.events.filter((e) => e.type === 'learning-error')).toEqual([])
    expect(p!.events.filter((e) => e.type === 'learning-degraded')).toEqual([
      {
        type: 'learning-degraded',
        cause: 'history',
        message:
          "Your browser's storage is full: round history is no longer saved (learning goes on, and saving is tried again every round).",
      },
      { type: 'learning-degraded', cause: 'history', message: null },
    ])
    // saved again once the disk had room: the later rounds are in it
    expect(p!.store.saved!.rounds.length).toBeGreaterThanOrEqual(3)
  })
})
