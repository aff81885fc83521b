// Token amounts for people: base units → "1,234.56 USDC". Rounds down (never shows more than there is)
// and says "<0.0001" rather than "0" for a dust balance.

export interface AmountFormat {
  /** fraction digits shown at most (default 4) */
  maxFractionDigits?: number
  /** appended after a space */
  symbol?: string
}

function group(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** `value` base units of a token with `decimals` decimals, e.g. (1_500_000n, 6) → "1.5". */
export function formatTokenAmount(value: bigint, decimals: number, format: AmountFormat = {}): string {
  const maxDigits = Math.min(format.maxFractionDigits ?? 4, decimals)
  const negative = value < 0n
  const abs = negative ? -value : value
  const unit = 10n ** BigInt(decimals)
  const whole = abs / unit
  const fraction = (abs % unit).toString().padStart(decimals, '0').slice(0, maxDigits).replace(/0+$/, '')
  let text: string
  if (whole === 0n && fraction === '' && abs !== 0n)
    text = maxDigits === 0 ? '<1' : `<0.${'0'.repeat(maxDigits - 1)}1`
  else text = group(whole.toString()) + (fraction ? `.${fraction}` : '')
  if (negative && abs !== 0n) text = `-${text}`
  return format.symbol ? `${text} ${format.symbol}` : text
}

/** ETH (18 decimals) with 4 fraction digits. */
export const formatEth = (wei: bigint): string =>
  formatTokenAmount(wei, 18, { maxFractionDigits: 4, symbol: 'ETH' })
