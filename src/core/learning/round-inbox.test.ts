import { describe, expect, it } from 'vitest'
import { createMemoryHub } from './memory-comm.ts'
import { MAX_POOL_GROUPS } from './rollout-pool.ts'
import { MAX_GROUPS_PER_MESSAGE, type RolloutGroup } from '../protocol/rollouts.ts'
import { createRoundInbox } from './round-inbox.ts'
import { DROPPED, MAX_DROP_SENDERS } from './drop-log.ts'

const G = 2
const group = (sender: string, i: number): RolloutGroup => ({
  // taskIds are 64 hex digits; the sender's name in them keeps two senders' tasks apart
  taskId: `${Buffer.from(sender).toString('hex')}${i.toString(16)}`.padEnd(64, '0'),
  task: { kind: 'reasoning', family: 'arithmetic', difficulty: 1, seed: i },
  completions: Array.from({ length: G }, () => ({ text: '<answer>1</answer>', tokenIds: [1, 2] })),
  rewards: Array.from({ length: G }, () => 0),
  policyVersion: 0,
})

/** One receiver's inbox, a flooding sender and an honest one, on an in-memory hub. */
function setup() {
  const hub = createMemoryHub()
  const receiver = hub.join('receiver')
  const inbox = createRoundInbox(receiver, G)
  const flooder = hub.join('flooder')
  const honest = hub.join('honest')
  /** publishes `messages` full messages of distinct tasks from the flooder for `round` */
  const flood = async (round: number, messages: number) => {
    for (let m = 0; m < messages; m++) {
      const groups = Array.from({ length: MAX_GROUPS_PER_MESSAGE }, (_, i) =>
        group('flooder', round * 10_000 + m * MAX_GROUPS_PER_MESSAGE + i),
      )
      await flooder.publishRollouts(round, { groups })
    }
  }
  const sendersOf = (round: number) => {
    const count = new Map<string, number>()
    for (const g of inbox.pool(round).groups()) count.set(g.from, (count.get(g.from) ?? 0) + 1)
    return Object.fromEntries(count)
  }
  return { hub, inbox, honest, flood, sendersOf }
}

describe('createRoundInbox', () => {
  it('keeps every group of an honest sender however much a flooding sender sends first (this round)', async () => {
    const { inbox, honest, flood, sendersOf } = setup()
    inbox.release(10)
    await flood(10, Math.ceil((2 * MAX_POOL_GROUPS) / MAX_GROUPS_PER_MESSAGE))
    await honest.publishRollouts(10, { groups: [group('honest', 1), group('honest', 2)] })
    expect(sendersOf(10).honest).toBe(2)
    expect(sendersOf(10).flooder).toBeLessThanOrEqual(MAX_GROUPS_PER_MESSAGE)
  })

  it('holds groups for the next round only, and keeps room in it for those who send once it starts', async () => {
    const { hub, inbox, honest, flood, sendersOf } = setup()
    inbox.release(10)
    // Two rounds ahead is too early to be a fast peer's round.
    await flood(12, 1)
    expect(inbox.takeDrops().bySender).toEqual({ flooder: { 'wrong-round': 1 } })
    // The next round: the flood is held to one sender's share.
    await flood(11, 40)
    expect(sendersOf(11).flooder).toBeLessThanOrEqual(MAX_GROUPS_PER_MESSAGE)
    // Many early senders together cannot fill the next round's pool before it starts.
    for (let k = 0; k < 2 * (MAX_POOL_GROUPS / MAX_GROUPS_PER_MESSAGE); k++) {
      const groups = Array.from({ length: MAX_GROUPS_PER_MESSAGE }, (_, i) => group(`early${k}`, i))
      await hub.join(`early${k}`).publishRollouts(11, { groups })
    }
    inbox.release(11)
    await honest.publishRollouts(11, { groups: [group('honest', 1), group('honest', 2)] })
    expect(sendersOf(11).honest).toBe(2)
  })

  it('counts every message and group it drops against its sender, by reason', async () => {
    const { hub, inbox, honest, flood } = setup()
    inbox.release(10)
    // over the per-sender bound of a round: one message of 16 groups is kept, the second dropped
    await flood(10, 2)
    // two rounds ahead, and a body that breaks the schema
    await honest.publishRollouts(12, { groups: [group('honest', 1)] })
    await hub.join('mallory').publishRollouts(10, { groups: 'nope' } as never)
    // a group sent twice for one task
    await honest.publishRollouts(10, { groups: [group('honest', 2)] })
    await honest.publishRollouts(10, { groups: [group('honest', 2)] })
    // after the window closed
    inbox.pool(10).close()
    await hub.join('late').publishRollouts(10, { groups: [group('late', 1)] })
    const drops = inbox.takeDrops()
    expect(drops.bySender).toEqual({
      flooder: { 'sender-full': MAX_GROUPS_PER_MESSAGE },
      honest: { 'wrong-round': 1, duplicate: 1 },
      mallory: { schema: 1 },
      late: { closed: 1 },
    })
    expect(drops.total).toBe(MAX_GROUPS_PER_MESSAGE + 4)
    for (const reason of Object.keys(drops.bySender.flooder!)) expect(DROPPED).toHaveProperty(reason)
    // taken once: the next round starts from nothing
    expect(inbox.takeDrops()).toEqual({ total: 0, bySender: {} })
  })

  it('names at most MAX_DROP_SENDERS senders a round and counts the rest in the total', async () => {
    const { hub, inbox } = setup()
    inbox.release(10)
    const senders = MAX_DROP_SENDERS + 50
    for (let k = 0; k < senders; k++)
      await hub.join(`fresh${k}`).publishRollouts(10, { groups: 'nope' } as never)
    const drops = inbox.takeDrops()
    expect(drops.total).toBe(senders)
    expect(Object.keys(drops.bySender).length).toBeLessThanOrEqual(MAX_DROP_SENDERS)
    // the most recent senders are the ones named
    expect(drops.bySender[`fresh${senders - 1}`]).toEqual({ schema: 1 })
  })
})
