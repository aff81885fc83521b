// The per-round submissions (reward, chain tip, winners) on their way to the coordinator, as pure data:
// queued → sending → confirmed | failed. An RPC outage pauses the whole queue with a capped exponential
// backoff and retries without limit; a round the chain's clock has not reached waits and retries; a
// peer that is not registered holds everything until it is; a revert that will never pass (or the
// user saying no) fails the round. The IO lives in submit-round.ts and reward-submitter.ts.
import { isHex, maxInt256, minInt256, type Hex } from 'viem'
import type { Submission, SubmissionStatus } from '../../core/learning/learning-state.ts'
import { MAX_WINNERS, votablePeerId } from './round-winners.ts'
import type { TransientReason } from './submission-error.ts'

/** The contract's reward is an int256: the mean reward in millionths, so 0.5 is 500000. */
export const REWARD_SCALE = 1_000_000
/** A chain tip for a round that trained nothing. */
export const ZERO_CHAIN_TIP: Hex = `0x${'0'.repeat(64)}`
/** First retry after an outage (ms); doubles per failure up to RETRY_MAX_MS. */
export const RETRY_BASE_MS = 2_000
/** The slowest retry: a chain that comes back is used within a minute even without a wallet poll. */
export const RETRY_MAX_MS = 60_000
/** Settled (confirmed or failed) rounds kept for the dashboard and the reload check; older ones go. */
export const MAX_SETTLED_KEPT = 500

export interface SubmissionInput {
  round: number
  /** int256 as a decimal string (rewardUnits) */
  reward: string
  /** bytes32 hex (chainTipBytes32) */
  chainTip: Hex
  /** peer ids this peer votes for (roundWinners); empty: no vote */
  winners: readonly string[]
}

export interface QueueEntry extends SubmissionInput {
  status: SubmissionStatus
  /** sends started */
  attempts: number
  txHash: Hex | undefined
  voteTxHash: Hex | undefined
  /** the last error, as a sentence */
  error: string | undefined
  waitingFor: 'registration' | 'round' | undefined
  /** no send before this (ms since epoch; 0 = now) */
  notBefore: number
}

export interface SubmissionQueue {
  /** by round, ascending */
  entries: readonly QueueEntry[]
  /** consecutive transient failures, for the backoff */
  failures: number
  /** nothing is sent before this (ms since epoch): the chain or the wallet failed and the queue backs off */
  pausedUntil: number
  /** the last transient failure, while it lasts */
  outage: { reason: TransientReason; error: string } | undefined
}

export const EMPTY_QUEUE: SubmissionQueue = { entries: [], failures: 0, pausedUntil: 0, outage: undefined }

/** What one attempt at a round came to (submit-round.ts). */
export type RoundOutcome =
  /** the reward is on chain (and the vote, unless `error` says why not) */
  | { kind: 'confirmed'; txHash: Hex | undefined; voteTxHash: Hex | undefined; error: string | undefined }
  | { kind: 'unregistered'; error: string }
  | { kind: 'early'; error: string; retryAt: number | undefined }
  | { kind: 'transient'; reason: TransientReason; error: string }
  | { kind: 'failed'; error: string }

/** The contract's reward for a round's mean reward: millionths, rounded, as a decimal string. */
export function rewardUnits(meanReward: number): string {
  if (!Number.isFinite(meanReward))
    throw new Error(`a round's mean reward must be a number, not ${meanReward}`)
  return String(Math.round(meanReward * REWARD_SCALE))
}

/** A training chain tip (hex, with or without 0x) as the contract's bytes32; none = ZERO_CHAIN_TIP. */
export function chainTipBytes32(tip: string | undefined): Hex {
  if (tip === undefined) return ZERO_CHAIN_TIP
  const hex = (tip.startsWith('0x') ? tip : `0x${tip}`).toLowerCase()
  if (!/^0x[0-9a-f]{64}$/.test(hex)) throw new Error(`a chain tip is 32 bytes of hex, not "${tip}"`)
  return hex as Hex
}

/** Exponential backoff after `failures` failures, capped at RETRY_MAX_MS. */
export function backoffMs(failures: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failures - 1))
}

function checkInput(input: SubmissionInput): void {
  const { round, reward, chainTip, winners } = input
  if (!Number.isSafeInteger(round) || round < 0)
    throw new Error(`a round is a whole number ≥ 0, not ${round}`)
  if (!/^-?\d+$/.test(reward) || BigInt(reward) > maxInt256 || BigInt(reward) < minInt256)
    throw new Error(`a reward is an int256 in decimal, not "${reward}"`)
  if (!isHex(chainTip) || chainTip.length !== 66)
    throw new Error(`a chain tip is bytes32 hex, not "${chainTip}"`)
  if (
    winners.length > MAX_WINNERS ||
    new Set(winners).size !== winners.length ||
    !winners.every(votablePeerId)
  )
    throw new Error(`a vote names 0 to ${MAX_WINNERS} distinct peer ids of 1 to 128 bytes`)
}

const byRound = (a: QueueEntry, b: QueueEntry) => a.round - b.round
const isPending = (e: QueueEntry) => e.status === 'queued' || e.status === 'sending'

/** Adds a round. A round is submitted once: a second enqueue of a round the queue has is ignored. */
export function enqueue(queue: SubmissionQueue, input: SubmissionInput): SubmissionQueue {
  checkInput(input)
  if (queue.entries.some((e) => e.round === input.round)) return queue
  const entry: QueueEntry = {
    round: input.round,
    reward: input.reward,
    chainTip: input.chainTip,
    winners: [...input.winners],
    status: 'queued',
    attempts: 0,
    txHash: undefined,
    voteTxHash: undefined,
    error: undefined,
    waitingFor: undefined,
    notBefore: 0,
  }
  return { ...queue, entries: [...queue.entries, entry].sort(byRound) }
}

/**
 * Merges what storage kept with what was enqueued before it was read (the stored entry wins). A round
 * that was being sent when the page went away is queued again: the send checks the chain first.
 */
export function withStored(queue: SubmissionQueue, stored: readonly QueueEntry[]): SubmissionQueue {
  const rounds = new Set(stored.map((e) => e.round))
  const revived = stored.map((e) => (e.status === 'sending' ? { ...e, status: 'queued' as const } : e))
  return {
    ...queue,
    entries: [...revived, ...queue.entries.filter((e) => !rounds.has(e.round))].sort(byRound),
  }
}

/**
 * The rounds to send now, oldest first. `registered`: whether the wallet holds a claim on this peer
 * (null: not known yet); while it is false nothing is due, and rounds held for the registration wait
 * until it is true.
 */
export function dueEntries(queue: SubmissionQueue, now: number, registered: boolean | null): QueueEntry[] {
  if (registered === false || now < queue.pausedUntil) return []
  return queue.entries.filter(
    (e) =>
      e.status === 'queued' && e.notBefore <= now && (e.waitingFor !== 'registration' || registered === true),
  )
}

/** When the queue has something to try again without outside news (ms since epoch), if ever. */
export function nextWakeAt(queue: SubmissionQueue, registered: boolean | null): number | undefined {
  if (registered === false) return undefined
  const times = queue.entries
    .filter((e) => e.status === 'queued' && (e.waitingFor !== 'registration' || registered === true))
    .map((e) => Math.max(e.notBefore, queue.pausedUntil))
  return times.length === 0 ? undefined : Math.min(...times)
}

function update(
  queue: SubmissionQueue,
  round: number,
  change: (e: QueueEntry) => QueueEntry,
): SubmissionQueue {
  return { ...queue, entries: queue.entries.map((e) => (e.round === round ? change(e) : e)) }
}

export function markSending(queue: SubmissionQueue, round: number): SubmissionQueue {
  return update(queue, round, (e) => ({ ...e, status: 'sending', attempts: e.attempts + 1 }))
}

/** The chain answered after an outage (the wallet read a new block): retry now instead of waiting. */
export function chainAnswered(queue: SubmissionQueue): SubmissionQueue {
  return queue.outage?.reason === 'unreachable' && queue.pausedUntil > 0
    ? { ...queue, pausedUntil: 0 }
    : queue
}

/** The wallet now holds a claim on this peer: rounds held for the registration are due at once. */
export function registrationSeen(queue: SubmissionQueue): SubmissionQueue {
  if (!queue.entries.some((e) => e.waitingFor === 'registration' && e.notBefore > 0)) return queue
  return {
    ...queue,
    entries: queue.entries.map((e) => (e.waitingFor === 'registration' ? { ...e, notBefore: 0 } : e)),
  }
}

/** Applies what an attempt at `round` came to. */
export function settle(
  queue: SubmissionQueue,
  round: number,
  outcome: RoundOutcome,
  now: number,
): SubmissionQueue {
  const healthy = { failures: 0, pausedUntil: 0, outage: undefined }
  switch (outcome.kind) {
    case 'confirmed':
      return {
        ...update(queue, round, (e) => ({
          ...e,
          status: 'confirmed',
          txHash: outcome.txHash ?? e.txHash,
          voteTxHash: outcome.voteTxHash ?? e.voteTxHash,
          error: outcome.error,
          waitingFor: undefined,
        })),
        ...healthy,
      }
    case 'unregistered':
      // Held until the wallet's claims show the registration (registrationSeen); the backoff only
      // matters when the wallet says registered and the chain does not agree yet.
      return {
        ...update(queue, round, (e) => ({
          ...e,
          status: 'queued',
          error: outcome.error,
          waitingFor: 'registration',
          notBefore: now + backoffMs(e.attempts),
        })),
        ...healthy,
      }
    case 'early':
      return {
        ...update(queue, round, (e) => ({
          ...e,
          status: 'queued',
          error: outcome.error,
          waitingFor: 'round',
          // never sooner than the backoff: a chain clock behind ours must not make this a busy loop
          notBefore: Math.max(outcome.retryAt ?? 0, now + backoffMs(e.attempts)),
        })),
        ...healthy,
      }
    case 'transient': {
      const failures = queue.failures + 1
      return {
        ...update(queue, round, (e) => ({
          ...e,
          status: 'queued',
          error: outcome.error,
          waitingFor: undefined,
        })),
        failures,
        pausedUntil: now + backoffMs(failures),
        outage: { reason: outcome.reason, error: outcome.error },
      }
    }
    case 'failed':
      return update(queue, round, (e) => ({
        ...e,
        status: 'failed',
        error: outcome.error,
        waitingFor: undefined,
      }))
  }
}

/** Drops the oldest settled rounds beyond MAX_SETTLED_KEPT; returns the queue and the rounds dropped. */
export function pruneSettled(queue: SubmissionQueue): { queue: SubmissionQueue; dropped: number[] } {
  const settled = queue.entries.filter((e) => !isPending(e))
  if (settled.length <= MAX_SETTLED_KEPT) return { queue, dropped: [] }
  const dropped = new Set(settled.slice(0, settled.length - MAX_SETTLED_KEPT).map((e) => e.round))
  return {
    queue: { ...queue, entries: queue.entries.filter((e) => !dropped.has(e.round)) },
    dropped: [...dropped],
  }
}

/** The learning store's view of the queue. */
export function toSubmissions(queue: SubmissionQueue): Record<number, Submission> {
  return Object.fromEntries(
    queue.entries.map((e) => [
      e.round,
      {
        round: e.round,
        reward: e.reward,
        chainTip: e.chainTip,
        status: e.status,
        attempts: e.attempts,
        txHash: e.txHash,
        error: e.error,
        winners: [...e.winners],
        voteTxHash: e.voteTxHash,
        waitingFor: e.waitingFor,
      } satisfies Submission,
    ]),
  )
}

/** "round 7", "rounds 12–14", "rounds 3, 5, 7–9" */
export function roundsText(rounds: readonly number[]): string {
  const sorted = [...rounds].sort((a, b) => a - b)
  const spans: string[] = []
  for (let i = 0; i < sorted.length;) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    spans.push(i === j ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`)
    i = j + 1
  }
  return `${sorted.length === 1 ? 'round' : 'rounds'} ${spans.join(', ')}`
}

export interface QueueContext {
  /** the RPC the wallet reaches the chain through */
  rpcUrl: string | null
  registered: boolean | null
  /** why nothing can be sent at all (no wallet, wrong network), as the end of a sentence; null: none */
  blocker: string | null
}

/** Rounds are held for this peer's registration to the wallet (and nothing else stops them first). */
export function waitsForRegistration(
  queue: SubmissionQueue,
  ctx: Pick<QueueContext, 'registered' | 'blocker'>,
): boolean {
  const pending = queue.entries.filter(isPending)
  return (
    pending.length > 0 &&
    !ctx.blocker &&
    (ctx.registered === false || pending.some((e) => e.waitingFor === 'registration'))
  )
}

/** A sentence for the dashboard when rounds wait for something the user should know of; null if none. */
export function queueMessage(queue: SubmissionQueue, ctx: QueueContext): string | null {
  const pending = queue.entries.filter(isPending)
  if (pending.length === 0) return null
  const one = pending.length === 1
  const subject = `${one ? 'The reward' : 'Rewards'} for ${roundsText(pending.map((e) => e.round))} ${one ? 'is' : 'are'} queued`
  const they = one ? 'it' : 'they'
  if (ctx.blocker) return `${subject}: ${ctx.blocker}`
  if (waitsForRegistration(queue, ctx))
    return `${subject}: this peer is not registered to the wallet; register it in the Wallet view and ${they} will be sent.`
  if (queue.outage?.reason === 'unreachable')
    return `${subject}: the chain at ${ctx.rpcUrl ?? 'its RPC URL'} is not answering; ${they} will be sent when it is back.`
  if (queue.outage) return `${subject} and will be retried: ${queue.outage.error}`
  return null
}
