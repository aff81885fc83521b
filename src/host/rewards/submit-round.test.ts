// submitRound's decisions with a stand-in chain: what it sends, and what a failure means for the queue.
// The real chain and wallet path are in reward-submitter.test.ts.
import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  HttpRequestError,
  encodeErrorResult,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import { describe, expect, it } from 'vitest'
import type { ContractTxResult } from '../chain/contract-tx.ts'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'
import { submitRound, type RoundSubmitContext } from './submit-round.ts'
import { ZERO_CHAIN_TIP } from './submission-queue.ts'

const WALLET = `0x${'11'.repeat(20)}` as const
const COORDINATOR = `0x${'22'.repeat(20)}` as const
const HASH = `0x${'33'.repeat(32)}` as const
const ENTRY = { round: 4, reward: '-250000', chainTip: ZERO_CHAIN_TIP, winners: ['a', 'b'] }

function revert(errorName: string, args: readonly unknown[]): ContractTxResult {
  const data = encodeErrorResult({ abi: swarmCoordinatorAbi, errorName, args } as Parameters<
    typeof encodeErrorResult
  >[0])
  const cause = new ContractFunctionRevertedError({ abi: swarmCoordinatorAbi, data, functionName: 'f' })
  return {
    ok: false,
    error: `sentence for ${errorName}`,
    cause: new ContractFunctionExecutionError(cause, {
      abi: swarmCoordinatorAbi,
      functionName: 'f',
      args: [],
    }),
  }
}
const mined: ContractTxResult = { ok: true, receipt: { transactionHash: HASH } as TransactionReceipt }

/** A chain whose reads say `onChain` and whose sends answer from `answers` by function name. */
function context(onChain: { reward: boolean; vote: boolean }, answers: Record<string, ContractTxResult>) {
  const sent: { functionName: string; args: readonly unknown[] | undefined }[] = []
  const ctx: RoundSubmitContext = {
    client: {
      readContract: async ({ functionName }: { functionName: string }) =>
        functionName === 'hasSubmittedReward' ? onChain.reward : onChain.vote,
    } as unknown as PublicClient,
    send: async (call) => {
      sent.push({ functionName: call.functionName, args: call.args })
      return answers[call.functionName] ?? mined
    },
    coordinator: COORDINATOR,
    peerId: 'me',
    wallet: WALLET,
    errorContext: {},
  }
  return { ctx, sent }
}

describe('submitRound', () => {
  it('sends the reward, then the vote', async () => {
    const { ctx, sent } = context({ reward: false, vote: false }, {})
    expect(await submitRound(ctx, ENTRY)).toEqual({
      kind: 'confirmed',
      txHash: HASH,
      voteTxHash: HASH,
      error: undefined,
    })
    expect(sent).toEqual([
      { functionName: 'submitReward', args: [4n, 'me', -250000n, ZERO_CHAIN_TIP] },
      { functionName: 'submitWinners', args: [4n, ['a', 'b'], 'me'] },
    ])
  })

  it('sends nothing the chain already has, and no vote without winners', async () => {
    const done = context({ reward: true, vote: true }, {})
    expect(await submitRound(done.ctx, ENTRY)).toMatchObject({ kind: 'confirmed', txHash: undefined })
    expect(done.sent).toEqual([])
    const noVote = context({ reward: false, vote: false }, {})
    await submitRound(noVote.ctx, { ...ENTRY, winners: [] })
    expect(noVote.sent.map((s) => s.functionName)).toEqual(['submitReward'])
  })

  it('takes RewardAlreadySubmitted (another send got there first) as done and still votes', async () => {
    const { ctx, sent } = context(
      { reward: false, vote: false },
      { submitReward: revert('RewardAlreadySubmitted', [4n, 'me', WALLET]) },
    )
    expect(await submitRound(ctx, ENTRY)).toMatchObject({ kind: 'confirmed', voteTxHash: HASH })
    expect(sent.map((s) => s.functionName)).toEqual(['submitReward', 'submitWinners'])
  })

  it('keeps the round confirmed when only the vote can never pass, and says so', async () => {
    const { ctx } = context({ reward: false, vote: false }, { submitWinners: revert('InvalidVote', []) })
    expect(await submitRound(ctx, ENTRY)).toEqual({
      kind: 'confirmed',
      txHash: HASH,
      voteTxHash: undefined,
      error: 'The reward is on chain, but the vote was not sent: sentence for InvalidVote',
    })
  })

  it('reports a silent chain as transient, whether a read or a send fails', async () => {
    const { ctx } = context({ reward: false, vote: false }, {})
    const http = new HttpRequestError({ url: 'http://127.0.0.1:9/', details: 'fetch failed' })
    const readsFail = {
      ...ctx,
      client: { readContract: () => Promise.reject(http) } as unknown as PublicClient,
    }
    expect(await submitRound(readsFail, ENTRY)).toMatchObject({ kind: 'transient', reason: 'unreachable' })
    const sendFails = context(
      { reward: false, vote: false },
      { submitReward: { ok: false, error: 'Cannot reach the chain.', cause: http } },
    )
    expect(await submitRound(sendFails.ctx, ENTRY)).toEqual({
      kind: 'transient',
      reason: 'unreachable',
      error: 'Cannot reach the chain.',
    })
    expect(sendFails.sent.map((s) => s.functionName)).toEqual(['submitReward'])
  })

  it('holds for the registration and waits for the round, with the contract’s sentence', async () => {
    const unregistered = context(
      { reward: false, vote: false },
      { submitReward: revert('PeerNotRegistered', ['me', WALLET]) },
    )
    expect(await submitRound(unregistered.ctx, ENTRY)).toEqual({
      kind: 'unregistered',
      error: 'sentence for PeerNotRegistered',
    })
    const early = context(
      { reward: false, vote: false },
      { submitReward: revert('InvalidRoundNumber', [4n, 3n]) },
    )
    expect(await submitRound(early.ctx, ENTRY)).toEqual({
      kind: 'early',
      error: 'sentence for InvalidRoundNumber',
      retryAt: undefined,
    })
  })
})
