// Sends one round's submissions to the coordinator through the app's transaction path (the wallet's
// confirmation rules, simulate first so a revert costs nothing, the burner's lock): submitReward, then
// submitWinners when the round names winners. It asks the chain first what it already has, so a round
// sent before a reload (or by a send whose receipt never came back) is never sent twice.
import type { Address, Hex, PublicClient } from 'viem'
import type { ConfirmRequest } from '../stores/confirm-store.ts'
import type { ContractCall, ContractTxResult } from '../chain/contract-tx.ts'
import { errorSentence, type ErrorContext } from '../chain/error-sentence.ts'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'
import { classifySubmissionError } from './submission-error.ts'
import { REWARD_SCALE, type RoundOutcome, type SubmissionInput } from './submission-queue.ts'

/** What the app's wallet send takes for a swarm submission (WalletControls.send). */
export interface SwarmSendOptions {
  kind: 'swarm'
  confirmation: ConfirmRequest
}

export type SwarmSend = (call: ContractCall, options: SwarmSendOptions) => Promise<ContractTxResult>

export interface RoundSubmitContext {
  /** reads the coordinator (the wallet's chain) */
  client: PublicClient
  send: SwarmSend
  coordinator: Address
  peerId: string
  /** the wallet that sends (its claim of peerId gets the reward) */
  wallet: Address
  errorContext: ErrorContext
}

/** A failure as the queue's outcome; null when the chain already has it (nothing left to do). */
function outcomeOf(cause: unknown, error: string): Exclude<RoundOutcome, { kind: 'confirmed' }> | null {
  const sorted = classifySubmissionError(cause)
  switch (sorted.kind) {
    case 'done':
      return null
    case 'unregistered':
      return { kind: 'unregistered', error }
    case 'early':
      return { kind: 'early', error, retryAt: sorted.retryAt }
    case 'transient':
      return { kind: 'transient', reason: sorted.reason, error }
    case 'permanent':
      return { kind: 'failed', error }
  }
}

export async function submitRound(ctx: RoundSubmitContext, entry: SubmissionInput): Promise<RoundOutcome> {
  const contract = { address: ctx.coordinator, abi: swarmCoordinatorAbi } as const
  const round = BigInt(entry.round)
  const who = [round, ctx.peerId, ctx.wallet] as const
  const vote = entry.winners.length > 0
  let rewarded: boolean
  let voted: boolean
  try {
    ;[rewarded, voted] = await Promise.all([
      ctx.client.readContract({ ...contract, functionName: 'hasSubmittedReward', args: who }),
      vote ? ctx.client.readContract({ ...contract, functionName: 'hasVoted', args: who }) : true,
    ])
  } catch (err) {
    return outcomeOf(err, errorSentence(err, ctx.errorContext)) ?? { kind: 'failed', error: String(err) }
  }
  const common = [
    { label: 'Peer', value: ctx.peerId },
    { label: 'Contract', value: ctx.coordinator },
  ]

  let txHash: Hex | undefined
  if (!rewarded) {
    const result = await ctx.send(
      {
        ...contract,
        functionName: 'submitReward',
        args: [round, ctx.peerId, BigInt(entry.reward), entry.chainTip],
      },
      {
        kind: 'swarm',
        confirmation: {
          title: `Submit this peer’s reward for round ${entry.round}`,
          details: [
            { label: 'Mean reward', value: String(Number(entry.reward) / REWARD_SCALE) },
            { label: 'Training chain tip', value: entry.chainTip },
            ...common,
          ],
        },
      },
    )
    if (result.ok) txHash = result.receipt.transactionHash
    else {
      const failed = outcomeOf(result.cause, result.error)
      if (failed) return failed
    }
  }

  let voteTxHash: Hex | undefined
  if (!voted) {
    const result = await ctx.send(
      { ...contract, functionName: 'submitWinners', args: [round, [...entry.winners], ctx.peerId] },
      {
        kind: 'swarm',
        confirmation: {
          title: `Vote for the winners of round ${entry.round}`,
          details: [{ label: 'Winners', value: entry.winners.join(', ') }, ...common],
        },
      },
    )
    if (result.ok) voteTxHash = result.receipt.transactionHash
    else {
      const failed = outcomeOf(result.cause, result.error)
      // The reward is on chain: a vote that will never pass does not make the round a failure.
      if (failed?.kind === 'failed')
        return {
          kind: 'confirmed',
          txHash,
          voteTxHash: undefined,
          error: `The reward is on chain, but the vote was not sent: ${failed.error}`,
        }
      if (failed) return failed
    }
  }
  return { kind: 'confirmed', txHash, voteTxHash, error: undefined }
}
