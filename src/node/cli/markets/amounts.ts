// Amounts typed on the command line, in human units, parsed exactly into base units: shares with 18
// decimals, collateral with the token's decimals. Zero is refused here; a negative amount never gets
// this far (command-line.ts).
import { parseDecimalAmount, SHARE_DECIMALS } from '../../../core/markets/share-amount.ts'
import { CommandError } from './command-error.ts'

export interface Token {
  symbol: string
  decimals: number
}

function parsePositive(text: string, decimals: number, what: string): bigint {
  const parsed = parseDecimalAmount(text, decimals)
  if (!parsed.ok)
    throw new CommandError(
      'bad-amount',
      `${what} “${text}” is not an amount: use digits and one dot with at most ${decimals} decimals, e.g. 12.5.`,
    )
  if (parsed.value === 0n) throw new CommandError('zero-amount', `${what} must be above zero.`)
  return parsed.value
}

export const parseShares = (text: string): bigint =>
  parsePositive(text, SHARE_DECIMALS, 'The number of shares')

export const parseTokens = (text: string, token: Token, what: string): bigint =>
  parsePositive(text, token.decimals, `${what} (${token.symbol})`)
