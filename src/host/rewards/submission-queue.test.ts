import { describe, expect, it } from 'vitest'
import {
  EMPTY_QUEUE,
  MAX_SETTLED_KEPT,
  RETRY_BASE_MS,
  RETRY_MAX_MS,
  ZERO_CHAIN_TIP,
  backoffMs,
  chainAnswered,
  chainTipBytes32,
  dueEntries,
  enqueue,
  markSending,
  nextWakeAt,
  pruneSettled,
  queueMessage,
  registrationSeen,
  rewardUnits,
  roundsText,
  settle,
  toSubmissions,
  waitsForRegistration,
  withStored,
  type SubmissionInput,
  type SubmissionQueue,
} from './submission-queue.ts'

const TIP = `0x${'ab'.repeat(32)}` as const
const input = (round: number, winners: string[] = []): SubmissionInput => ({
  round,
  reward: String(round * 1000),
  chainTip: TIP,
  winners,
})
const queueOf = (...rounds: number[]): SubmissionQueue =>
  rounds.reduce((q, r) => enqueue(q, input(r)), EMPTY_QUEUE)
const statuses = (q: SubmissionQueue) => q.entries.map((e) => [e.round, e.status])
const CTX = { rpcUrl: 'http://127.0.0.1:8545', registered: true, blocker: null }
const down = { kind: 'transient', reason: 'unreachable', error: 'Cannot reach the chain.' } as const
const confirmed = { kind: 'confirmed', txHash: '0x01', voteTxHash: undefined, error: undefined } as const

describe('reward and chain tip encoding', () => {
  it('scales the mean reward to millionths, rounded, as a decimal string', () => {
    expect(rewardUnits(0.5)).toBe('500000')
    expect(rewardUnits(0.1234567)).toBe('123457')
    expect(rewardUnits(-0.25)).toBe('-250000')
    expect(rewardUnits(0)).toBe('0')
    expect(() => rewardUnits(Number.NaN)).toThrow(/mean reward/)
  })

  it('takes a chain tip with or without 0x, and none as zero', () => {
    expect(chainTipBytes32('AB'.repeat(32))).toBe(TIP)
    expect(chainTipBytes32(TIP)).toBe(TIP)
    expect(chainTipBytes32(undefined)).toBe(ZERO_CHAIN_TIP)
    expect(() => chainTipBytes32('abc')).toThrow(/32 bytes/)
  })
})

describe('submission queue', () => {
  it('keeps rounds in order and ignores a round enqueued twice', () => {
    const q = enqueue(queueOf(5, 3, 4), { ...input(4), reward: '1' })
    expect(q.entries.map((e) => e.round)).toEqual([3, 4, 5])
    expect(q.entries[1]!.reward).toBe('4000')
    expect(dueEntries(q, 0, null).map((e) => e.round)).toEqual([3, 4, 5])
  })

  it('refuses input the contract would refuse', () => {
    expect(() => enqueue(EMPTY_QUEUE, { ...input(1), round: -1 })).toThrow(/round/)
    expect(() => enqueue(EMPTY_QUEUE, { ...input(1), reward: '0.5' })).toThrow(/int256/)
    expect(() => enqueue(EMPTY_QUEUE, { ...input(1), reward: (2n ** 255n).toString() })).toThrow(/int256/)
    expect(() => enqueue(EMPTY_QUEUE, { ...input(1), chainTip: '0x12' })).toThrow(/bytes32/)
    expect(() => enqueue(EMPTY_QUEUE, input(1, ['a', 'a']))).toThrow(/distinct/)
  })

  it('goes queued → sending → confirmed', () => {
    let q = markSending(queueOf(1), 1)
    expect(statuses(q)).toEqual([[1, 'sending']])
    expect(q.entries[0]!.attempts).toBe(1)
    expect(dueEntries(q, 0, true)).toEqual([])
    q = settle(q, 1, { ...confirmed, voteTxHash: '0x02' }, 10)
    expect(q.entries[0]).toMatchObject({ status: 'confirmed', txHash: '0x01', voteTxHash: '0x02' })
    expect(nextWakeAt(q, true)).toBeUndefined()
  })

  it('backs off exponentially while the chain is down, capped, and retries without limit', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(backoffMs)).toEqual([
      RETRY_BASE_MS,
      2 * RETRY_BASE_MS,
      4 * RETRY_BASE_MS,
      8 * RETRY_BASE_MS,
      16 * RETRY_BASE_MS,
      RETRY_MAX_MS,
      RETRY_MAX_MS,
      RETRY_MAX_MS,
    ])
    let q = queueOf(1, 2)
    let now = 1_000
    for (let i = 1; i <= 10; i++) {
      q = settle(markSending(q, 1), 1, down, now)
      expect(q.pausedUntil).toBe(now + backoffMs(i))
      expect(dueEntries(q, now + backoffMs(i) - 1, true)).toEqual([]) // the whole queue waits
      expect(nextWakeAt(q, true)).toBe(now + backoffMs(i))
      now = q.pausedUntil
    }
    expect(statuses(q)).toEqual([
      [1, 'queued'],
      [2, 'queued'],
    ])
    expect(q.entries[0]!.attempts).toBe(10)
    expect(dueEntries(q, now, true).map((e) => e.round)).toEqual([1, 2])
    // a success ends the outage and resets the backoff
    q = settle(markSending(q, 1), 1, confirmed, now)
    expect(q).toMatchObject({ failures: 0, pausedUntil: 0, outage: undefined })
  })

  it('retries at once when the wallet sees the chain answer again', () => {
    const q = settle(markSending(queueOf(1), 1), 1, down, 0)
    expect(dueEntries(q, 1, true)).toEqual([])
    expect(dueEntries(chainAnswered(q), 1, true).map((e) => e.round)).toEqual([1])
    // other transient failures (no ETH, nonce) wait for their backoff
    const funds = settle(markSending(queueOf(1), 1), 1, { ...down, reason: 'funds' }, 0)
    expect(chainAnswered(funds)).toBe(funds)
  })

  it('holds rounds for the registration and resumes once registered', () => {
    let q = settle(markSending(queueOf(1, 2), 1), 1, { kind: 'unregistered', error: 'Register first.' }, 0)
    expect(q.entries[0]).toMatchObject({
      status: 'queued',
      waitingFor: 'registration',
      error: 'Register first.',
    })
    expect(dueEntries(q, 0, null).map((e) => e.round)).toEqual([2])
    expect(dueEntries(q, 0, false)).toEqual([])
    expect(nextWakeAt(q, false)).toBeUndefined()
    q = settle(markSending(q, 2), 2, { kind: 'unregistered', error: 'Register first.' }, 0)
    expect(nextWakeAt(q, null)).toBeUndefined()
    // the wallet says registered but the chain does not agree yet: try again after a backoff
    expect(dueEntries(q, 0, true)).toEqual([])
    expect(nextWakeAt(q, true)).toBe(RETRY_BASE_MS)
    // the wallet's claims show the registration (a new read): resume at once, oldest first
    q = registrationSeen(q)
    expect(dueEntries(q, 0, true).map((e) => e.round)).toEqual([1, 2])
    expect(registrationSeen(q)).toBe(q)
  })

  it('retries a round the chain’s clock has not reached later, alone', () => {
    let q = settle(
      markSending(queueOf(1, 9), 9),
      9,
      { kind: 'early', error: 'Not open.', retryAt: undefined },
      100,
    )
    expect(q.entries[1]).toMatchObject({
      status: 'queued',
      waitingFor: 'round',
      notBefore: 100 + RETRY_BASE_MS,
    })
    expect(dueEntries(q, 101, true).map((e) => e.round)).toEqual([1])
    expect(nextWakeAt(q, true)).toBe(0)
    q = settle(markSending(q, 9), 9, { kind: 'early', error: 'Not started.', retryAt: 50_000 }, 200)
    expect(q.entries[1]!.notBefore).toBe(50_000)
  })

  it('fails a round that will never pass, and keeps going with the others', () => {
    const q = settle(markSending(queueOf(1, 2), 1), 1, { kind: 'failed', error: 'You declined.' }, 0)
    expect(statuses(q)).toEqual([
      [1, 'failed'],
      [2, 'queued'],
    ])
    expect(q.entries[0]!.error).toBe('You declined.')
    expect(dueEntries(q, 0, true).map((e) => e.round)).toEqual([2])
  })

  it('revives a round that was being sent when the page went away; stored entries win', () => {
    const stored = markSending(queueOf(1, 2), 2).entries
    const q = withStored(enqueue(queueOf(2), { ...input(3) }), stored)
    expect(statuses(q)).toEqual([
      [1, 'queued'],
      [2, 'queued'],
      [3, 'queued'],
    ])
    expect(q.entries[1]!.attempts).toBe(1)
  })

  it('keeps the newest settled rounds and every pending one', () => {
    let q = queueOf(...Array.from({ length: MAX_SETTLED_KEPT + 3 }, (_, i) => i))
    for (let r = 0; r < MAX_SETTLED_KEPT + 2; r++) q = settle(q, r, confirmed, 0)
    const { queue, dropped } = pruneSettled(q)
    expect(dropped).toEqual([0, 1])
    expect(queue.entries).toHaveLength(MAX_SETTLED_KEPT + 1)
    expect(queue.entries.at(-1)).toMatchObject({ round: MAX_SETTLED_KEPT + 2, status: 'queued' })
    expect(pruneSettled(queue).dropped).toEqual([])
  })

  it('shows each round as the learning store’s Submission', () => {
    const q = settle(markSending(enqueue(EMPTY_QUEUE, input(7, ['b', 'a'])), 7), 7, confirmed, 0)
    expect(toSubmissions(q)).toEqual({
      7: {
        round: 7,
        reward: '7000',
        chainTip: TIP,
        status: 'confirmed',
        attempts: 1,
        txHash: '0x01',
        error: undefined,
        winners: ['b', 'a'],
        voteTxHash: undefined,
        waitingFor: undefined,
      },
    })
  })
})

describe('queue message', () => {
  it('names the queued rounds and the silent chain', () => {
    const q = settle(markSending(queueOf(12, 13, 14), 12), 12, down, 0)
    expect(queueMessage(q, CTX)).toBe(
      'Rewards for rounds 12–14 are queued: the chain at http://127.0.0.1:8545 is not answering; they will be sent when it is back.',
    )
    const one = settle(markSending(queueOf(3), 3), 3, down, 0)
    expect(queueMessage(one, CTX)).toBe(
      'The reward for round 3 is queued: the chain at http://127.0.0.1:8545 is not answering; it will be sent when it is back.',
    )
  })

  it('asks for the registration, names what blocks sending, and is quiet when all is well', () => {
    expect(queueMessage(queueOf(1, 2, 5), { ...CTX, registered: false })).toBe(
      'Rewards for rounds 1–2, 5 are queued: this peer is not registered to the wallet; register it in the Wallet view and they will be sent.',
    )
    expect(queueMessage(queueOf(1), { ...CTX, blocker: 'connect a wallet to send it.' })).toBe(
      'The reward for round 1 is queued: connect a wallet to send it.',
    )
    expect(queueMessage(queueOf(1), CTX)).toBeNull()
    expect(queueMessage(settle(queueOf(1), 1, confirmed, 0), { ...CTX, registered: false })).toBeNull()
  })

  it('tells apart rounds held for the registration alone, the state a newcomer starts in', () => {
    expect(waitsForRegistration(queueOf(1, 2), { ...CTX, registered: false })).toBe(true)
    expect(waitsForRegistration(queueOf(1, 2), CTX)).toBe(false)
    expect(
      waitsForRegistration(queueOf(1), { ...CTX, registered: false, blocker: 'connect a wallet.' }),
    ).toBe(false)
    expect(waitsForRegistration(settle(queueOf(1), 1, confirmed, 0), { ...CTX, registered: false })).toBe(
      false,
    )
  })

  it('writes round lists compactly', () => {
    expect(roundsText([7])).toBe('round 7')
    expect(roundsText([9, 3, 5, 7, 8])).toBe('rounds 3, 5, 7–9')
  })
})
