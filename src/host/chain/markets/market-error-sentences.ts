// One sentence per custom error of the market contracts (gateways, factories, markets: IMarketErrors.sol
// and ERC-6909), for error-sentence.ts. Each says what happened and what to do; amounts in tokens and
// shares, not base units.
import { formatShares } from '../../../core/markets/share-amount.ts'
import { formatTokenAmount } from '../../../core/markets/token-amount.ts'

type Args = readonly unknown[]
type Context = { token?: { symbol: string; decimals: number } }

const STATUS = ['open', 'awaiting settlement', 'settled', 'expired', 'failed']

function tokens(value: unknown, ctx: Context): string {
  if (typeof value !== 'bigint' || !ctx.token) return String(value)
  return formatTokenAmount(value, ctx.token.decimals, { maxFractionDigits: 4, symbol: ctx.token.symbol })
}

const shares = (value: unknown): string =>
  typeof value === 'bigint' ? `${formatShares(value, 6)} shares` : String(value)

const status = (value: unknown): string => STATUS[Number(value)] ?? `status ${String(value)}`

export const MARKET_SENTENCES: Record<string, (args: Args, ctx: Context) => string> = {
  // slippage
  TokensInExceedsMax: ([tokensIn, max], ctx) =>
    `Slippage exceeded: the trade now costs ${tokens(tokensIn, ctx)}, more than your maximum of ${tokens(max, ctx)}. The price moved; check the new quote, or allow more slippage, and try again.`,
  TokensOutBelowMin: ([tokensOut, min], ctx) =>
    `Slippage exceeded: the sale now pays ${tokens(tokensOut, ctx)}, less than your minimum of ${tokens(min, ctx)}. The price moved; check the new quote, or allow more slippage, and try again.`,
  // market state
  MarketNotOpen: () => 'This market is not open for trading any more.',
  WrongMarketStatus: ([current, required]) =>
    `The market is ${status(current)}; this needs it to be ${status(required)}.`,
  MarketProxyNotDeployedByFactory: ([market]) =>
    `The market ${String(market)} was not created by this gateway’s factory: it trades on another gateway.`,
  WinningOutcomeOutOfBounds: () => 'That winning outcome is not one of the market’s outcomes.',
  CannotResolveMarketYet: () =>
    'The market cannot be resolved yet: wait until its resolution delay has passed.',
  MarketResolutionLocked: () => 'The market’s resolution is already under way.',
  OutcomeIdxOutOfBounds: ([idx, count]) => `There is no outcome #${idx}: the market has ${count} outcomes.`,
  // sizes
  SharesOutBelowMinDelta: ([s, min]) =>
    `Too few shares: ${shares(s)} is below the minimum of ${shares(min)}.`,
  SharesInBelowMinDelta: ([s, min]) =>
    `Too few shares to sell: ${shares(s)} is below the minimum of ${shares(min)}.`,
  OutcomeSupplyBelowMinDelta: ([supply, min]) =>
    `The sale would leave ${shares(supply)} of this outcome in the market; sell all of it or leave at least ${shares(min)}.`,
  TokensInBelowMin: ([tokensIn, min], ctx) =>
    `The trade is too small: it costs ${tokens(tokensIn, ctx)}; the minimum is ${tokens(min, ctx)}. Buy more shares.`,
  ZeroTokensIn: () => 'The trade is too small to cost anything: buy more shares.',
  ZeroNetTokensIn: () => 'The trade is too small to cost anything: buy more shares.',
  ZeroSharesOut: () => 'Enter a number of shares above zero.',
  ZeroSharesIn: () => 'Enter a number of shares above zero.',
  ZeroTokensOut: () => 'The sale is too small to pay anything: sell more shares.',
  BuyTooSmall: () => 'The trade is too small: buy more shares.',
  SellTooSmall: () =>
    'The sale is too small: it would pay less than the minimum of 0.01 token. Sell more shares.',
  SellOverlap: () => 'The sale is too small for this market’s size: sell more shares.',
  SqrtOverlap: () => 'The sale is too small for this market’s size: sell more shares.',
  ExpInputTooBig: () => 'The trade is too large for this market’s liquidity: buy fewer shares.',
  SharesInExceedSupply: ([s, supply]) =>
    `You tried to sell ${shares(s)}, more than the ${shares(supply)} in the market.`,
  GrossTokensOutNotPositive: () => 'The sale would pay nothing: sell more shares.',
  GrossTokensOutExceedMarketPool: () => 'The market’s pool cannot pay for this sale: sell fewer shares.',
  // exits
  RedeemZeroShares: () => 'You hold no winning shares of this market to redeem.',
  RedeemZeroTokensOut: () => 'Your winning shares redeem for nothing.',
  EmptyOutcomeIndices: () => 'Choose at least one outcome to liquidate.',
  ArrayLengthMismatch: () => 'The lists of outcomes and amounts have different lengths.',
  MarketCreationSharesAlreadyLiquidated: () => 'The creator’s shares of this market were already paid out.',
  // creation
  OutcomeCountTooLow: ([n, min]) => `A market needs at least ${min} outcomes, not ${n}.`,
  OutcomeCountTooHigh: ([n, max]) => `A market has at most ${max} outcomes, not ${n}.`,
  KTooLow: ([, min]) => `The liquidity parameter k is too low: at least ${Number(min) / 1e18}.`,
  KTooHigh: ([, max]) => `The liquidity parameter k is too high: at most ${Number(max) / 1e18}.`,
  LiquidityParameterTooLow: ([, min]) => `The liquidity b is too low: at least ${shares(min)}.`,
  LiquidityParameterTooHigh: ([, max]) => `The liquidity b is too high: at most ${shares(max)}.`,
  TradingFeeTooLow: ([fee, min]) =>
    `A trading fee of ${Number(fee) / 1e16} % is below the minimum of ${Number(min) / 1e16} %.`,
  TradingFeeTooHigh: ([fee, max]) =>
    `A trading fee of ${Number(fee) / 1e16} % is above the maximum of ${Number(max) / 1e16} %.`,
  InitialDepositTooLow: ([d, min], ctx) =>
    `The deposit of ${tokens(d, ctx)} is below the minimum of ${tokens(min, ctx)}.`,
  InitialDepositTooHigh: ([d, max], ctx) =>
    `The deposit of ${tokens(d, ctx)} is above the maximum of ${tokens(max, ctx)}.`,
  TradingWindowOutOfBounds: ([w, min, max]) => `A trading window of ${w} s is outside ${min}–${max} s.`,
  SettlementWindowOutOfBounds: ([w, min, max]) => `A settlement window of ${w} s is outside ${min}–${max} s.`,
  TokenDecimalsTooLow: ([d]) => `A collateral token with ${d} decimals is not supported (6 to 18).`,
  TokenDecimalsTooHigh: ([d]) => `A collateral token with ${d} decimals is not supported (6 to 18).`,
  MarketProxyRangeInvalid: ([first, last, count]) =>
    `There are ${count} markets; the range ${first}–${last} is outside it.`,
  // roles and plumbing
  NotGateway: () => 'Only the market’s gateway can do this: trade through the gateway.',
  NotOracleRelayer: () => 'Only the oracle can settle or fail a market.',
  NotMarketCreator: () => 'Only the market’s creator can do this.',
  AlreadyInitialized: () => 'This market is already initialized.',
  ReentrantCall: () => 'The market refused a re-entrant call.',
  CloneFailed: () => 'The factory could not create the market proxy.',
  TokenTransferFailed: () => 'The collateral token transfer failed.',
  DivisionByZero: () => 'The market maths divided by zero: this market state cannot be traded.',
  Uint256Overflow: () => 'The amount is too large for the market maths: use a smaller one.',
  NegativeValue: () => 'An amount was negative: use a positive one.',
  LnRatioBelowOne: () => 'The market maths hit an impossible state (ln below one).',
  // ERC-6909 shares
  ERC6909InsufficientBalance: ([, balance, needed]) =>
    `You hold ${shares(balance)} of this outcome and tried to use ${shares(needed)}.`,
  ERC6909InsufficientAllowance: ([, allowance, needed]) =>
    `The spender may move only ${shares(allowance)} of your shares and needs ${shares(needed)}.`,
  ERC6909InvalidReceiver: ([r]) => `Shares cannot be sent to ${String(r)}.`,
}
