// The create-market form's checks, before anything is sent: every field as typed is turned into the
// factory's `deployNewMarketProxy(initialDeposit, metadata, config)` or into a sentence on that field,
// by the same limits the market contracts enforce (each kind's MarketKindSpec: liquidity, fee, deposit
// and the trading and settlement windows of contracts/src). Pure; the deadlines are fixed against the chain's
// clock only when the transaction is built (marketRequestAt).
import type { MarketConfig } from './market-config.ts'
import { MARKET_KINDS, type MarketKind } from './market-kinds.ts'
import type { MarketCategory, MarketMetadataDoc } from './metadata.ts'
import { parsePercentWad } from './percent.ts'
import { parseDecimalAmount } from './share-amount.ts'

/** The form offers 2 to 8 outcomes: the contracts take up to 20, a person types few. */
export const FORM_MIN_OUTCOMES = 2
export const FORM_MAX_OUTCOMES = 8

const MINUTE = 60
const HOUR = 3_600
const DAY = 86_400

export const DURATION_UNITS = { minutes: MINUTE, hours: HOUR, days: DAY } as const
export type DurationUnit = keyof typeof DURATION_UNITS

/**
 * The contracts check the trading window against the block the creation lands in; the form asks for
 * this much more than the minimum so the time the transaction takes cannot push it under.
 */
export const TRADING_WINDOW_MARGIN_S = 60

export interface CreateMarketInput {
  kind: MarketKind
  question: string
  outcomes: string[]
  category: MarketCategory
  resolutionCriteria: string
  /** DPM k (e.g. "10") or LMSR b in shares (e.g. "100") */
  liquidity: string
  /** DPM only: the creator's deposit in tokens; an LMSR market takes exactly its maximum loss b·ln n */
  deposit: string
  /** percent, e.g. "2" */
  fee: string
  tradingFor: string
  tradingUnit: DurationUnit
  settlementWithin: string
  settlementUnit: DurationUnit
}

export type CreateMarketField =
  'question' | 'outcomes' | 'liquidity' | 'deposit' | 'fee' | 'tradingFor' | 'settlementWithin'

/** What the form would send, deadlines still relative. */
export interface CreateMarketDraft {
  kind: MarketKind
  metadata: MarketMetadataDoc
  outcomeCount: number
  /** DPM k or LMSR b, WAD */
  k: bigint
  tradingFee: bigint
  /** collateral base units the creator pays */
  deposit: bigint
  tradingWindow: number
  settlementWindow: number
}

export type CreateMarketCheck =
  | { ok: true; draft: CreateMarketDraft }
  | { ok: false; errors: Partial<Record<CreateMarketField, string>>; deposit: bigint | null }

export interface CreateMarketContext {
  tokenDecimals: number
  tokenSymbol: string
  /** the creator's collateral balance (null: not known, not checked) */
  balance: bigint | null
}

const wholeTokens = (units: bigint, decimals: number) => units / 10n ** BigInt(decimals)

function durationOf(text: string, unit: DurationUnit): number | null {
  const t = text.trim()
  if (!/^\d+(\.\d+)?$/.test(t)) return null
  return Math.round(Number(t) * DURATION_UNITS[unit])
}

/** "3 h 20 min" style text for a window bound in seconds. */
export function formatWindow(seconds: number): string {
  if (seconds % DAY === 0) return `${seconds / DAY} ${seconds === DAY ? 'day' : 'days'}`
  if (seconds % HOUR === 0) return `${seconds / HOUR} ${seconds === HOUR ? 'hour' : 'hours'}`
  if (seconds % MINUTE === 0) return `${seconds / MINUTE} min`
  return `${seconds} s`
}

/** A sentence when `seconds` is not a number or outside [lo + margin, hi]; `range` words the bounds. */
function checkWindow(
  seconds: number | null,
  [lo, hi]: [number, number],
  margin: number,
  range: (lo: string, hi: string) => string,
): string | null {
  if (seconds === null) return 'Enter the duration as a number, e.g. 3.'
  if (seconds < lo + margin || seconds > hi) return range(formatWindow(lo + margin), formatWindow(hi))
  return null
}

export function checkCreateMarket(input: CreateMarketInput, ctx: CreateMarketContext): CreateMarketCheck {
  const errors: Partial<Record<CreateMarketField, string>> = {}
  const { kind } = input
  const outcomes = input.outcomes.map((o) => o.trim())
  if (input.question.trim() === '') errors.question = 'Write the question the market answers.'
  if (outcomes.length < FORM_MIN_OUTCOMES || outcomes.length > FORM_MAX_OUTCOMES)
    errors.outcomes = `A market has ${FORM_MIN_OUTCOMES} to ${FORM_MAX_OUTCOMES} outcomes.`
  else if (outcomes.some((o) => o === '')) errors.outcomes = 'Give every outcome a label (or remove it).'
  else if (new Set(outcomes.map((o) => o.toLowerCase())).size !== outcomes.length)
    errors.outcomes = 'Two outcomes have the same label: make each one distinct.'

  const spec = MARKET_KINDS[kind]
  const k = parseDecimalAmount(input.liquidity, 18)
  const { min: kMin, max: kMax, errorName: kName } = spec.liquidity
  if (!k.ok) errors.liquidity = `${kName} must be a number, e.g. 10.`
  else if (k.value < kMin || k.value > kMax)
    errors.liquidity = `${kName} must be between ${wholeTokens(kMin, 18)} and ${wholeTokens(kMax, 18).toLocaleString('en-US')}.`

  const fee = parsePercentWad(input.fee, 'the trading fee')
  const { min: feeMin, max: feeMax } = spec.tradingFee
  const pct = (wad: bigint) => `${Number(wad / 10n ** 12n) / 10_000} %`
  if (!fee.ok) errors.fee = fee.error
  else if (fee.value < feeMin || fee.value > feeMax)
    errors.fee = `The trading fee must be between ${pct(feeMin)} and ${pct(feeMax)}.`

  const unit = 10n ** BigInt(ctx.tokenDecimals)
  let deposit: bigint | null = null
  if ('chosen' in spec.deposit) {
    const { minTokens, maxTokens } = spec.deposit.chosen
    const d = parseDecimalAmount(input.deposit, ctx.tokenDecimals)
    if (!d.ok) errors.deposit = `The deposit must be an amount of ${ctx.tokenSymbol}, e.g. 100.`
    else if (d.value < minTokens * unit || d.value > maxTokens * unit)
      errors.deposit = `The deposit must be between ${minTokens} and ${maxTokens.toLocaleString('en-US')} ${ctx.tokenSymbol}.`
    else deposit = d.value
  } else if (k.ok && !errors.liquidity && !errors.outcomes) {
    deposit = spec.deposit.fromLiquidity({
      outcomeCount: outcomes.length,
      k: k.value,
      tradingFee: 0n,
      tokenDecimals: ctx.tokenDecimals,
    })
  }
  if (deposit !== null && ctx.balance !== null && deposit > ctx.balance)
    errors.deposit = `The market takes ${wholeTokens(deposit + unit - 1n, ctx.tokenDecimals)} ${ctx.tokenSymbol} from you but your balance is lower: get test tokens in the Wallet view first.`

  const bounds = spec.windows
  const tradingWindow = durationOf(input.tradingFor, input.tradingUnit)
  const settlementWindow = durationOf(input.settlementWithin, input.settlementUnit)
  const tradingError = checkWindow(
    tradingWindow,
    bounds.trading,
    TRADING_WINDOW_MARGIN_S,
    (lo, hi) => `Trading must stay open between ${lo} and ${hi}.`,
  )
  const settlementError = checkWindow(
    settlementWindow,
    bounds.settlement,
    0,
    (lo, hi) => `The oracle must get between ${lo} and ${hi} to settle after trading closes.`,
  )
  if (tradingError) errors.tradingFor = tradingError
  if (settlementError) errors.settlementWithin = settlementError

  if (Object.keys(errors).length > 0 || !k.ok || !fee.ok || deposit === null)
    return { ok: false, errors, deposit }
  return {
    ok: true,
    draft: {
      kind,
      metadata: {
        question: input.question.trim(),
        outcomes,
        category: input.category,
        resolutionCriteria: input.resolutionCriteria.trim(),
      },
      outcomeCount: outcomes.length,
      k: k.value,
      tradingFee: fee.value,
      deposit,
      tradingWindow: tradingWindow!,
      settlementWindow: settlementWindow!,
    },
  }
}

/** The factory's config for a draft created at chain time `nowSeconds` (the latest block's timestamp). */
export function marketRequestAt(d: CreateMarketDraft, nowSeconds: bigint): MarketConfig {
  const tradingDeadline = nowSeconds + BigInt(d.tradingWindow)
  return {
    outcomeCount: BigInt(d.outcomeCount),
    k: d.k,
    tradingFee: d.tradingFee,
    tradingDeadline,
    settlementDeadline: tradingDeadline + BigInt(d.settlementWindow),
  }
}
