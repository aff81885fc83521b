// Turns whatever a chain call throws into one sentence a person can act on: contract reverts decoded
// with the tabswarm ABIs (each custom error has its own sentence), wallet refusals, an unreachable RPC.
import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  TimeoutError,
  UserRejectedRequestError,
  decodeErrorResult,
  type Hex,
} from 'viem'
import { collateralTokenAbi } from './generated/CollateralToken.ts'
import { delphiFactoryAbi } from './generated/DelphiFactory.ts'
import { dynamicParimutuelGatewayAbi } from './generated/DynamicParimutuelGateway.ts'
import { lmsrGatewayAbi } from './generated/LmsrGateway.ts'
import { swarmCoordinatorAbi } from './generated/SwarmCoordinator.ts'
import { MARKET_SENTENCES } from './markets/market-error-sentences.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'

export interface ErrorContext {
  /** the RPC the call went to (named when it cannot be reached) */
  rpcUrl?: string
  /** for "try again at …" sentences; default Date.now() */
  now?: number
  /** the collateral token, to show token amounts in units */
  token?: { symbol: string; decimals: number }
  /** IANA time zone for clock times; default the browser's */
  timeZone?: string
}

/** A transaction that was mined but reverted (the receipt says so). */
export class TransactionRevertedError extends Error {
  override name = 'TransactionRevertedError'
  constructor(
    readonly hash: Hex,
    readonly blockNumber: bigint,
  ) {
    super(`transaction ${hash} reverted in block ${blockNumber}`)
  }
}

/** Every custom error the app's contracts can revert with, for decoding raw revert data. */
const KNOWN_ERRORS = [
  ...swarmCoordinatorAbi,
  ...collateralTokenAbi,
  ...dynamicParimutuelGatewayAbi,
  ...lmsrGatewayAbi,
  ...delphiFactoryAbi,
].filter((item) => item.type === 'error')

type Args = readonly unknown[]
type SentenceOf = (args: Args, ctx: ErrorContext & { now: number }) => string

const short = (value: unknown): string => {
  const s = String(value)
  return s.length > 16 && /^(0x|12D3|Qm)/.test(s) ? `${s.slice(0, 8)}…${s.slice(-6)}` : s
}

function whenText(unixSeconds: bigint, now: number, timeZone?: string): string {
  const at = Number(unixSeconds) * 1000
  const clock = new Date(at).toLocaleTimeString('en-GB', { hour12: false, timeZone })
  const wait = Math.max(0, Math.ceil((at - now) / 1000))
  const inText =
    wait < 60
      ? `${wait} s`
      : wait <= 90 * 60
        ? `${Math.ceil(wait / 60)} min`
        : `${(wait / 3600).toFixed(1)} h`
  return `${clock} (in ${inText})`
}

function tokens(value: unknown, ctx: ErrorContext): string {
  if (typeof value !== 'bigint' || !ctx.token) return String(value)
  return formatTokenAmount(value, ctx.token.decimals, { maxFractionDigits: 2, symbol: ctx.token.symbol })
}

/** One sentence per custom error of SwarmCoordinator and CollateralToken. */
const SENTENCES: Record<string, SentenceOf> = {
  ...MARKET_SENTENCES,
  // SwarmCoordinator
  ClaimIndexOutOfBounds: ([index, count]) =>
    `There is no registration #${index}: the coordinator holds ${count}.`,
  InvalidBootnode: () => 'That bootnode address is empty or too long for the coordinator.',
  InvalidBootnodeIndex: ([index, count]) => `There is no bootnode #${index}: the coordinator lists ${count}.`,
  InvalidPeerId: () => 'The peer id is empty or too long for the coordinator.',
  InvalidPublicKeyLength: ([length]) =>
    `The peer’s public key is ${length} bytes long; the coordinator takes 1 to 1024 bytes (libp2p protobuf).`,
  InvalidRoundLength: () => 'A round must last at least one second.',
  InvalidRoundNumber: ([round, current]) =>
    `Round ${round} is not open for submissions: the current round is ${current}.`,
  InvalidSignatureLength: ([length]) =>
    `The registration signature is ${length} bytes long; the coordinator takes 1 to 1024 bytes.`,
  InvalidVote: () => 'That vote is not valid: it needs 1 to the maximum number of distinct winner peer ids.',
  OnlyBootnodeManager: () => 'Only the swarm’s bootnode manager can change the bootnodes.',
  OnlyOwner: () => 'Only the coordinator’s owner can do this.',
  PeerNotRegistered: ([peerId, wallet]) =>
    `Peer ${short(peerId)} is not registered to wallet ${short(wallet)}: register it first.`,
  RewardAlreadySubmitted: ([round, peerId]) =>
    `The reward of peer ${short(peerId)} for round ${round} was already submitted from this wallet.`,
  SwarmNotStarted: ([genesis], ctx) =>
    `The swarm has not started yet: round 0 begins at ${whenText(genesis as bigint, ctx.now, ctx.timeZone)}.`,
  WinnerAlreadyVoted: ([round, peerId]) =>
    `Peer ${short(peerId)} already voted for the winners of round ${round} from this wallet.`,
  // CollateralToken
  ERC20InsufficientBalance: ([, balance, needed], ctx) =>
    `Not enough tokens: this wallet holds ${tokens(balance, ctx)} and needs ${tokens(needed, ctx)}.`,
  ERC20InsufficientAllowance: ([, allowance, needed], ctx) =>
    `The contract may spend only ${tokens(allowance, ctx)} of your tokens and needs ${tokens(needed, ctx)}: approve more first.`,
  ERC20InvalidReceiver: ([receiver]) => `Tokens cannot be sent to ${short(receiver)}.`,
  ERC20InvalidSpender: ([spender]) => `The address ${short(spender)} cannot be approved as a spender.`,
  OnlyMinter: () => 'Only the token’s minter can mint.',
  RequestTooOften: ([next], ctx) =>
    `You already got test tokens recently; the faucet gives again at ${whenText(next as bigint, ctx.now, ctx.timeZone)}.`,
}

/** The sentence for a decoded custom error; unknown names read as "Name(arg, …)". */
export function revertSentence(errorName: string, args: Args, ctx: ErrorContext = {}): string {
  const sentence = SENTENCES[errorName]
  if (sentence) return sentence(args, { ...ctx, now: ctx.now ?? Date.now() })
  const shown = args.map((a) => (typeof a === 'string' ? JSON.stringify(a) : String(a))).join(', ')
  return `The contract refused the call: ${errorName}(${shown}).`
}

function revertOf(error: ContractFunctionRevertedError, ctx: ErrorContext): string {
  if (error.data?.errorName) return revertSentence(error.data.errorName, error.data.args ?? [], ctx)
  if (error.raw) {
    try {
      const decoded = decodeErrorResult({ abi: KNOWN_ERRORS, data: error.raw })
      return revertSentence(decoded.errorName, decoded.args ?? [], ctx)
    } catch {
      return `The contract refused the call with an error this app does not know (${error.signature ?? error.raw.slice(0, 10)}).`
    }
  }
  if (error.reason) return `The contract refused the call: ${error.reason}.`
  return 'The contract refused the call without saying why.'
}

const unreachable = (url: string | undefined): string =>
  `Cannot reach the chain at ${url ?? 'its RPC URL'}: check that it is running, or pick another RPC URL in the wallet settings.`

/** The one sentence to show for `error`. */
export function errorSentence(error: unknown, ctx: ErrorContext = {}): string {
  if (error instanceof TransactionRevertedError)
    return `The transaction was mined in block ${error.blockNumber} but reverted; nothing changed.`
  if (error instanceof BaseError) {
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
    if (reverted instanceof ContractFunctionRevertedError) return revertOf(reverted, ctx)
    const rejected = error.walk(
      (e) => e instanceof UserRejectedRequestError || (e as { code?: unknown }).code === 4001,
    )
    if (rejected) return 'You declined the request; nothing was sent.'
    const http = error.walk((e) => e instanceof HttpRequestError)
    if (http instanceof HttpRequestError) {
      if (http.status === undefined || http.status >= 500) return unreachable(http.url ?? ctx.rpcUrl)
      return `The chain at ${http.url} answered HTTP ${http.status}: check the RPC URL in the wallet settings.`
    }
    if (error.walk((e) => e instanceof TimeoutError)) return unreachable(ctx.rpcUrl)
    if (error.walk((e) => e instanceof InsufficientFundsError))
      return 'This wallet does not have enough ETH to pay for the transaction’s gas.'
    return error.shortMessage.replace(/\.?$/, '.')
  }
  if (error instanceof TypeError && /fetch/i.test(error.message)) return unreachable(ctx.rpcUrl)
  if (error instanceof Error) return error.message
  return String(error)
}
