// What a market command prints: one JSON object on stdout. Amounts go out exactly: the integer in base
// units as a decimal string (`raw`) and the same amount in human units (`value`, e.g. "12.5", exact, no
// grouping, so it can be passed back as an argument) with its unit. Errors carry a sentence and a code.
import { formatUnits } from 'viem'
import { SHARE_DECIMALS } from '../../../core/markets/share-amount.ts'
import { UNLIMITED_ALLOWANCE } from '../../../core/markets/trade-checks.ts'
import { CommandError, exitCodeOf } from './command-error.ts'

export interface Amount {
  raw: string
  value: string
  unit: string
}

export const amountOf = (raw: bigint, decimals: number, unit: string): Amount => ({
  raw: raw.toString(),
  value: formatUnits(raw, decimals),
  unit,
})

/** An allowance: 2^256 − 1 reads as `unlimited`. */
export const allowanceOf = (raw: bigint, decimals: number, unit: string): Amount =>
  raw === UNLIMITED_ALLOWANCE
    ? { raw: raw.toString(), value: 'unlimited', unit }
    : amountOf(raw, decimals, unit)

export const sharesOf = (raw: bigint): Amount => amountOf(raw, SHARE_DECIMALS, 'shares')

/** 1e18 = 100 % → { raw, value: "0.3842…" (a fraction of one) } */
export const fractionOf = (wad: bigint): { raw: string; value: string } => ({
  raw: wad.toString(),
  value: formatUnits(wad, 18),
})

export type CommandResult = Record<string, unknown>

/** JSON text of a result: bigints (should any slip through) become decimal strings, never a throw. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
}

export interface Printed {
  text: string
  exitCode: number
}

export const successOutput = (command: string, result: CommandResult): Printed => ({
  text: toJson({ ok: true, command, ...result }),
  exitCode: 0,
})

/** Any thrown value as the error object: a CommandError keeps its code; anything else is `failed`. */
export function errorOutput(error: unknown): Printed {
  const e =
    error instanceof CommandError
      ? error
      : new CommandError('failed', error instanceof Error ? error.message : String(error))
  return { text: toJson({ ok: false, error: e.message, code: e.code }), exitCode: exitCodeOf(e.code) }
}

export const txJson = (tx: { hash: string; blockNumber: bigint }) => ({
  hash: tx.hash,
  blockNumber: tx.blockNumber.toString(),
})
