// What a failed reward or vote submission means for the reward queue: already on chain (done), wait for
// the peer's registration, wait for the round to open on the chain's clock, retry once the chain or the
// wallet recovers (RPC down, nonce race, no gas money), or give up (a revert that will never pass, or
// the user said no). The sentence shown to the user comes from error-sentence.ts; this only sorts.
import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  NonceTooLowError,
  TimeoutError,
  UserRejectedRequestError,
  WaitForTransactionReceiptTimeoutError,
  decodeErrorResult,
} from 'viem'
import { TransactionDeclinedError } from '../chain/contract-tx.ts'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'

/**
 * Why a retry will work: the chain answers again, another send took the nonce, the wallet gets ETH, the
 * wallet is connected again (a failure with nothing thrown comes from before the transaction started).
 */
export type TransientReason = 'unreachable' | 'nonce' | 'funds' | 'wallet'

export type SubmissionErrorKind =
  /** RewardAlreadySubmitted / WinnerAlreadyVoted: the chain has it already */
  | { kind: 'done' }
  /** PeerNotRegistered: nothing passes until this peer is registered to the wallet */
  | { kind: 'unregistered' }
  /** InvalidRoundNumber / SwarmNotStarted: the chain's clock is behind; `retryAt` ms when known */
  | { kind: 'early'; retryAt: number | undefined }
  | { kind: 'transient'; reason: TransientReason }
  /** declined by the user, or a revert that will never pass */
  | { kind: 'permanent' }

/** The coordinator's custom error behind `error`, when it is one. */
function coordinatorRevert(error: BaseError): { name: string; args: readonly unknown[] } | undefined {
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  if (!(reverted instanceof ContractFunctionRevertedError)) return undefined
  if (reverted.data?.errorName) return { name: reverted.data.errorName, args: reverted.data.args ?? [] }
  if (!reverted.raw) return undefined
  try {
    const decoded = decodeErrorResult({ abi: swarmCoordinatorAbi, data: reverted.raw })
    return { name: decoded.errorName, args: decoded.args ?? [] }
  } catch {
    return undefined // another contract's error: nothing the queue can wait for
  }
}

function revertKind(name: string, args: readonly unknown[]): SubmissionErrorKind {
  switch (name) {
    case 'RewardAlreadySubmitted':
    case 'WinnerAlreadyVoted':
      return { kind: 'done' }
    case 'PeerNotRegistered':
      return { kind: 'unregistered' }
    case 'InvalidRoundNumber':
      return { kind: 'early', retryAt: undefined }
    case 'SwarmNotStarted':
      return { kind: 'early', retryAt: typeof args[0] === 'bigint' ? Number(args[0]) * 1000 : undefined }
    default:
      return { kind: 'permanent' }
  }
}

/** `error`: the `cause` of a failed ContractTxResult (undefined when the wallet was not ready). */
export function classifySubmissionError(error: unknown): SubmissionErrorKind {
  if (error === undefined) return { kind: 'transient', reason: 'wallet' }
  if (error instanceof TransactionDeclinedError) return { kind: 'permanent' }
  if (error instanceof TypeError && /fetch/i.test(error.message))
    return { kind: 'transient', reason: 'unreachable' }
  if (!(error instanceof BaseError)) return { kind: 'permanent' }
  const revert = coordinatorRevert(error)
  if (revert) return revertKind(revert.name, revert.args)
  const is = (type: abstract new (...args: never[]) => Error) => error.walk((e) => e instanceof type) !== null
  if (is(UserRejectedRequestError) || error.walk((e) => (e as { code?: unknown }).code === 4001))
    return { kind: 'permanent' }
  if (is(HttpRequestError) || is(TimeoutError) || is(WaitForTransactionReceiptTimeoutError))
    return { kind: 'transient', reason: 'unreachable' }
  if (is(NonceTooLowError)) return { kind: 'transient', reason: 'nonce' }
  if (is(InsufficientFundsError)) return { kind: 'transient', reason: 'funds' }
  return { kind: 'permanent' }
}
