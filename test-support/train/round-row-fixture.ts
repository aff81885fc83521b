// Round rows for the Train view's unit tests: a plain trained round, with fields overridable.
import type { RoundRow } from '../../src/core/learning/learning-state.ts'

export function roundRow(round: number, over: Partial<RoundRow> = {}): RoundRow {
  return {
    round,
    drawn: [
      { cell: 'reasoning/arithmetic/1', rewards: [1.2, 0.2] },
      { cell: 'reasoning/list-sorting/2', rewards: [0.2, 0.2] },
    ],
    explored: 1,
    ownReward: 0.5,
    swarmReward: 0.4,
    groupsPublished: 2,
    groupsHeard: 4,
    groupsRefused: 0,
    groupsIgnored: 0,
    peerRewards: {},
    refusedFrom: {},
    trainedOn: { local: 2, external: 2, informative: 3 },
    loss: 0.1,
    weightsHash: `hash-${round}`,
    policyVersion: round + 1,
    startedAt: Date.UTC(2026, 0, 1, 0, round),
    endedAt: Date.UTC(2026, 0, 1, 0, round, 30),
    tokensPerSecond: 100,
    stepMs: 250,
    receiptId: undefined,
    chainTip: `tip-${round}`,
    skipped: undefined,
    ...over,
  }
}
