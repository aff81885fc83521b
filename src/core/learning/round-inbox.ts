// The peer's one subscription to the rollouts topic, sorting what arrives into per-round pools. A fast
// peer may publish round r + 1 before a slow one has finished round r, so the inbox keeps a pool for
// every round from the oldest still being collected up to LOOKAHEAD_ROUNDS ahead; older and further
// rounds are dropped as 'wrong-round'. Every drop, the pools' included, is counted against its sender
// (drop-log.ts) for the round report to take.
import { createDropLog, type Drops } from './drop-log.ts'
import type { SwarmComm } from './memory-comm.ts'
import { createRolloutPool, MAX_POOL_GROUPS, type RolloutPool } from './rollout-pool.ts'
import { validateRolloutsBody } from '../protocol/rollouts.ts'

/** Rounds ahead of the oldest open one that are collected already: a fast peer is at most one ahead. */
export const LOOKAHEAD_ROUNDS = 1

/**
 * Groups held for a round before it starts: a quarter of its pool, enough for a few fast peers' whole
 * rounds, so that groups sent early (or pre-published by an attacker) leave room for those sent once
 * the round is under way.
 */
export const MAX_EARLY_GROUPS = MAX_POOL_GROUPS / 4

export interface RoundInbox {
  /** the pool of `round`, created on first use */
  pool(round: number): RolloutPool
  /** forgets every round before `round` */
  release(round: number): void
  /** the messages and groups dropped since the last take, by sender and reason */
  takeDrops(): Drops
  close(): void
}

/**
 * `trustOf` is each sender's earned trust (earnedTrust in peer-standing.ts), handed to every pool so
 * that room goes to senders our verifiers have accepted before.
 */
export function createRoundInbox(
  comm: SwarmComm,
  groupSize: number,
  trustOf?: (from: string) => number,
): RoundInbox {
  const pools = new Map<number, RolloutPool>()
  let oldest = -1
  const drops = createDropLog()
  const onDrop = drops.record
  const pool = (round: number) => {
    let p = pools.get(round)
    if (!p) pools.set(round, (p = createRolloutPool(round, trustOf ? { trustOf, onDrop } : { onDrop })))
    return p
  }
  const stop = comm.onRollouts((from, round, body) => {
    const valid = validateRolloutsBody(body, groupSize)
    if (typeof valid === 'string') return drops.record(from, 'schema')
    if (round < oldest || round > Math.max(oldest, 0) + LOOKAHEAD_ROUNDS)
      return drops.record(from, 'wrong-round')
    const room = round > oldest ? MAX_EARLY_GROUPS : MAX_POOL_GROUPS
    for (const g of valid.groups) pool(round).offer(from, round, g, room)
  })
  return {
    pool,
    release(round) {
      oldest = Math.max(oldest, round)
      for (const r of pools.keys()) if (r < round) pools.delete(r)
    },
    takeDrops: drops.take,
    close: stop,
  }
}
