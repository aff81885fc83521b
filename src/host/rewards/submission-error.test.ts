import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  NonceTooLowError,
  TimeoutError,
  UserRejectedRequestError,
  encodeErrorResult,
  type Abi,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { TransactionDeclinedError } from '../chain/contract-tx.ts'
import { collateralTokenAbi } from '../chain/generated/CollateralToken.ts'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'
import { classifySubmissionError } from './submission-error.ts'

const WALLET = `0x${'11'.repeat(20)}`

function reverted(
  errorName: string,
  args: readonly unknown[],
  abi: Abi = swarmCoordinatorAbi,
  decodeWith = abi,
) {
  const data = encodeErrorResult({ abi, errorName, args } as Parameters<typeof encodeErrorResult>[0])
  const cause = new ContractFunctionRevertedError({ abi: decodeWith, data, functionName: 'submitReward' })
  return new ContractFunctionExecutionError(cause, {
    abi: decodeWith,
    functionName: 'submitReward',
    args: [],
  })
}

describe('classifySubmissionError', () => {
  it('sorts the coordinator’s reverts', () => {
    expect(classifySubmissionError(reverted('RewardAlreadySubmitted', [3n, 'p', WALLET]))).toEqual({
      kind: 'done',
    })
    expect(classifySubmissionError(reverted('WinnerAlreadyVoted', [3n, 'p', WALLET]))).toEqual({
      kind: 'done',
    })
    expect(classifySubmissionError(reverted('PeerNotRegistered', ['p', WALLET]))).toEqual({
      kind: 'unregistered',
    })
    expect(classifySubmissionError(reverted('InvalidRoundNumber', [9n, 4n]))).toEqual({
      kind: 'early',
      retryAt: undefined,
    })
    expect(classifySubmissionError(reverted('SwarmNotStarted', [1_700_000_000n]))).toEqual({
      kind: 'early',
      retryAt: 1_700_000_000_000,
    })
    expect(classifySubmissionError(reverted('InvalidVote', []))).toEqual({ kind: 'permanent' })
  })

  it('decodes a revert the calling ABI did not know, and gives up on other contracts’ errors', () => {
    const raw = reverted('PeerNotRegistered', ['p', WALLET], swarmCoordinatorAbi, collateralTokenAbi)
    expect(classifySubmissionError(raw)).toEqual({ kind: 'unregistered' })
    expect(
      classifySubmissionError(reverted('OnlyMinter', [], collateralTokenAbi, swarmCoordinatorAbi)),
    ).toEqual({
      kind: 'permanent',
    })
  })

  it('retries an RPC that does not answer, a lost nonce race and a wallet without gas money', () => {
    const http = new HttpRequestError({ url: 'http://127.0.0.1:9/', details: 'fetch failed' })
    expect(classifySubmissionError(http)).toEqual({ kind: 'transient', reason: 'unreachable' })
    expect(classifySubmissionError(new TimeoutError({ body: {}, url: 'http://x' }))).toEqual({
      kind: 'transient',
      reason: 'unreachable',
    })
    expect(classifySubmissionError(new TypeError('fetch failed'))).toEqual({
      kind: 'transient',
      reason: 'unreachable',
    })
    expect(classifySubmissionError(new NonceTooLowError({ nonce: 3 }))).toEqual({
      kind: 'transient',
      reason: 'nonce',
    })
    expect(classifySubmissionError(new InsufficientFundsError())).toEqual({
      kind: 'transient',
      reason: 'funds',
    })
  })

  it('retries when the wallet was not ready to send (nothing thrown by the transaction)', () => {
    expect(classifySubmissionError(undefined)).toEqual({ kind: 'transient', reason: 'wallet' })
  })

  it('gives up when the user says no', () => {
    expect(classifySubmissionError(new TransactionDeclinedError())).toEqual({ kind: 'permanent' })
    expect(classifySubmissionError(new UserRejectedRequestError(new Error('no')))).toEqual({
      kind: 'permanent',
    })
    expect(classifySubmissionError(new Error('something else'))).toEqual({ kind: 'permanent' })
  })
})
