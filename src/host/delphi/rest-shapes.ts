// The REST API's market and position objects (gensyn-delphi-sdk v2.1.0 types, research/delphi.md §1),
// checked field by field: an answer that does not have the documented shape is an error naming the
// field, never a half-read market. Integers arrive as decimal strings and leave as bigints.
import { getAddress, isAddress, type Address } from 'viem'
import { MARKET_STATUS } from '../../core/markets/market-snapshot.ts'
import { DelphiResponseError } from './errors.ts'

/** Delphi’s status words, by their `marketStatus` code. */
export const DELPHI_STATUS_WORDS = {
  open: MARKET_STATUS.open,
  awaiting_settlement: MARKET_STATUS.awaitingSettlement,
  settled: MARKET_STATUS.settled,
  expired: MARKET_STATUS.expired,
  failed: MARKET_STATUS.failed,
} as const
export type DelphiStatusWord = keyof typeof DELPHI_STATUS_WORDS

export interface DelphiMarket {
  /** the market proxy */
  id: Address
  appMarketId: string
  status: DelphiStatusWord
  category: string
  /** null when Delphi could not fetch the metadata document */
  metadata: { question: string; outcomes: string[]; promptContext: string | null } | null
  createdAt: string
  resolvesAt: string | null
  settlesAt: string | null
  settledAt: string | null
  winningOutcomeIdx: bigint | null
  /** 1e18 = 100 % */
  tradingFee: bigint | null
  proof: string | null
  verifiable: boolean
}

export interface DelphiPosition {
  marketProxy: Address
  wallet: Address
  outcomeIdx: number
  /** wei-shares */
  shares: bigint
  redeemedOrLiquidated: boolean
  tokensRedeemed: bigint
  marketStatus: DelphiStatusWord
}

type Obj = Record<string, unknown>

/** Reads fields of one object of an answer; every failure names `where.field`. */
function fields(value: unknown, where: string) {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new DelphiResponseError(`Delphi’s answer is malformed: ${where} is not an object.`)
  const o = value as Obj
  const bad = (key: string, want: string): never => {
    throw new DelphiResponseError(
      `Delphi’s answer is malformed: ${where}.${key} should be ${want}, not ${JSON.stringify(o[key]) ?? 'missing'}.`,
    )
  }
  const nullable = <T>(key: string, read: (key: string) => T): T | null =>
    o[key] === null || o[key] === undefined ? null : read(key)
  const string = (key: string): string => (typeof o[key] === 'string' ? o[key] : bad(key, 'a string'))
  const r = {
    obj: o,
    string,
    boolean: (key: string): boolean => (typeof o[key] === 'boolean' ? o[key] : bad(key, 'true or false')),
    address: (key: string): Address =>
      typeof o[key] === 'string' && isAddress(o[key], { strict: false })
        ? getAddress(o[key])
        : bad(key, 'an address'),
    uint: (key: string): bigint =>
      typeof o[key] === 'string' && /^\d+$/.test(o[key])
        ? BigInt(o[key])
        : typeof o[key] === 'number' && Number.isSafeInteger(o[key]) && o[key] >= 0
          ? BigInt(o[key])
          : bad(key, 'a whole number'),
    status: (key: string): DelphiStatusWord =>
      typeof o[key] === 'string' && o[key] in DELPHI_STATUS_WORDS
        ? (o[key] as DelphiStatusWord)
        : bad(key, `one of ${Object.keys(DELPHI_STATUS_WORDS).join(', ')}`),
    nullableString: (key: string) => nullable(key, string),
    nullable,
  }
  return r
}

function parseMetadata(value: unknown, where: string): DelphiMarket['metadata'] {
  if (value === null || value === undefined) return null
  const f = fields(value, where)
  const outcomes = f.obj.outcomes
  if (!Array.isArray(outcomes) || outcomes.length < 2 || !outcomes.every((o) => typeof o === 'string'))
    throw new DelphiResponseError(
      `Delphi’s answer is malformed: ${where}.outcomes should be at least two labels, not ${JSON.stringify(outcomes) ?? 'missing'}.`,
    )
  const model = f.obj.model
  const promptContext =
    typeof model === 'object' && model !== null && typeof (model as Obj).prompt_context === 'string'
      ? ((model as Obj).prompt_context as string)
      : null
  return { question: f.string('question'), outcomes: outcomes as string[], promptContext }
}

export function parseDelphiMarket(value: unknown, where = 'market'): DelphiMarket {
  const f = fields(value, where)
  return {
    id: f.address('id'),
    appMarketId: f.string('appMarketId'),
    status: f.status('status'),
    category: f.string('category'),
    metadata: parseMetadata(f.obj.metadata, `${where}.metadata`),
    createdAt: f.string('createdAt'),
    resolvesAt: f.nullableString('resolvesAt'),
    settlesAt: f.nullableString('settlesAt'),
    settledAt: f.nullableString('settledAt'),
    winningOutcomeIdx: f.nullable('winningOutcomeIdx', f.uint),
    tradingFee: f.nullable('tradingFee', f.uint),
    proof: f.nullableString('proof'),
    verifiable: f.boolean('verifiable'),
  }
}

export function parseDelphiPosition(value: unknown, where = 'position'): DelphiPosition {
  const f = fields(value, where)
  return {
    marketProxy: f.address('marketProxy'),
    wallet: f.address('wallet'),
    outcomeIdx: Number(f.uint('outcomeIdx')),
    shares: f.uint('shares'),
    redeemedOrLiquidated: f.boolean('redeemedOrLiquidated'),
    tokensRedeemed: f.uint('tokensRedeemed'),
    marketStatus: f.status('marketStatus'),
  }
}

/** `{ [key]: [...] }` (a null list reads as empty, as the API sends for no rows) → parsed items. */
export function parseList<T>(value: unknown, key: string, parse: (item: unknown, where: string) => T): T[] {
  const f = fields(value, 'answer')
  const list = f.obj[key]
  if (list === null) return []
  if (!Array.isArray(list))
    throw new DelphiResponseError(
      `Delphi’s answer is malformed: ${key} should be a list, not ${JSON.stringify(list) ?? 'missing'}.`,
    )
  return list.map((item, i) => parse(item, `${key}[${i}]`))
}
