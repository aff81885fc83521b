// The tab's on-chain side of the learning loop: every round the peer worker reports is turned into a
// submission (reward, training chain tip, winners) and queued on the reward submitter
// (src/host/rewards/reward-submitter.ts), which sends it through the wallet whenever it can. Queuing returns at
// once, so the round loop never waits on the chain or on a confirmation dialog.
import { createRewardSubmitter, type RewardSubmitter } from './rewards/reward-submitter.ts'
import { roundWinners } from './rewards/round-winners.ts'
import { chainTipBytes32, rewardUnits, type SubmissionInput } from './rewards/submission-queue.ts'
import type { ContractTxResult } from './chain/contract-tx.ts'
import { learningStore } from './stores/learning-store.ts'
import { type RoundRow } from '../core/learning/learning-state.ts'
import type { LearningEvent } from '../core/protocol/peer-worker-messages.ts'
import { getWalletControls } from './wallet/wallet-controls.ts'

/**
 * What a round puts on chain, or undefined for a skipped round (it earned nothing to report). A round
 * that ran without a training step (no group with a reward spread) carries the zero chain tip; the
 * vote names the round's best peers by mean reward, this peer included.
 */
export function roundSubmission(row: RoundRow, selfId: string): SubmissionInput | undefined {
  if (row.skipped) return undefined
  const means: Record<string, number> = Object.fromEntries(
    Object.entries(row.peerRewards).map(([id, heard]) => [id, heard.reward]),
  )
  means[selfId] = row.ownReward
  return {
    round: row.round,
    reward: rewardUnits(row.ownReward),
    chainTip: chainTipBytes32(row.chainTip),
    winners: roundWinners(means),
  }
}

export interface RewardSubmissions {
  /** queues the round of a 'learning-round' event; other events are ignored */
  onEvent(event: LearningEvent): void
  stop(): Promise<void>
}

/** The wallet's send, or a failure the queue retries when the wallet has not started yet. */
const walletSend: Parameters<typeof createRewardSubmitter>[0]['send'] = (call, options) =>
  getWalletControls()?.send(call, options) ??
  Promise.resolve<ContractTxResult>({
    ok: false,
    error: 'The wallet has not started yet; the reward will be sent once it has.',
  })

/** Starts queuing this peer's rounds for the coordinator. */
export function startRewardSubmissions(
  peerId: string,
  submitter: RewardSubmitter = createRewardSubmitter({ peerId, send: walletSend }),
): RewardSubmissions {
  return {
    onEvent(event) {
      if (event.type !== 'learning-round') return
      try {
        const entry = roundSubmission(event.row, peerId)
        if (entry) submitter.enqueue(entry)
      } catch (error) {
        // a round the contract would refuse is not sent; the loop goes on
        const why = error instanceof Error ? error.message : String(error)
        learningStore.setState({
          message: `Round ${event.row.round}'s reward cannot go on chain: ${why}.`,
        })
      }
    },
    stop: () => submitter.stop(),
  }
}
