import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { EMPTY_QUEUE, enqueue, markSending, ZERO_CHAIN_TIP } from './submission-queue.ts'
import { openSubmissionStore, submissionScope } from './submission-store.ts'

const COORDINATOR = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const entries = (...rounds: number[]) =>
  rounds.reduce(
    (q, r) => enqueue(q, { round: r, reward: '1', chainTip: ZERO_CHAIN_TIP, winners: ['a'] }),
    EMPTY_QUEUE,
  ).entries

describe('submission store', () => {
  it('keeps each peer’s rounds apart, in round order, across opens', async () => {
    const factory = new IDBFactory()
    const mine = submissionScope(31337, COORDINATOR, 'peer-a')
    expect(mine).toBe('31337/0x5fbdb2315678afecb367f032d93f642f64180aa3/peer-a')
    const a = await openSubmissionStore(factory, mine)
    const b = await openSubmissionStore(factory, submissionScope(31337, COORDINATOR, 'peer-b'))
    await a.save(entries(12, 3, 7), [])
    await b.save(entries(1), [])
    a.close()
    const again = await openSubmissionStore(factory, mine)
    expect((await again.load()).map((e) => e.round)).toEqual([3, 7, 12])
    expect(await b.load()).toEqual(entries(1))
  })

  it('replaces rounds and deletes dropped ones in one save', async () => {
    const store = await openSubmissionStore(new IDBFactory(), 'scope')
    await store.save(entries(1, 2, 3), [])
    const sending = { ...EMPTY_QUEUE, entries: entries(1, 2, 3) }
    await store.save([markSending(sending, 2).entries[1]!], [1])
    const loaded = await store.load()
    expect(loaded.map((e) => [e.round, e.status])).toEqual([
      [2, 'sending'],
      [3, 'queued'],
    ])
  })
})
