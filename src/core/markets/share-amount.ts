// Share amounts typed by a person ("12.5") ↔ wei-shares (18 decimals), exactly, with a sentence for
// input that is not an amount.

export const SHARE_DECIMALS = 18

export type ParsedAmount = { ok: true; value: bigint } | { ok: false; error: string }

/** "12.5" → 12.5·10^decimals; rejects signs, exponents, more fraction digits than `decimals`. */
export function parseDecimalAmount(text: string, decimals = SHARE_DECIMALS): ParsedAmount {
  const t = text.trim().replace(/[_,\s]/g, '')
  if (t === '') return { ok: false, error: 'Enter a number of shares.' }
  const m = /^(\d*)(?:\.(\d*))?$/.exec(t)
  if (!m || (m[1] === '' && (m[2] ?? '') === ''))
    return { ok: false, error: `“${text.trim()}” is not an amount: use digits and one dot, e.g. 12.5.` }
  const fraction = m[2] ?? ''
  if (fraction.length > decimals) return { ok: false, error: `At most ${decimals} digits after the dot.` }
  const value = BigInt((m[1] || '0') + fraction.padEnd(decimals, '0'))
  return { ok: true, value }
}

/** wei-shares → "12.5" (trailing zeros dropped; at most `maxFractionDigits`, rounded down). */
export function formatShares(value: bigint, maxFractionDigits = 4): string {
  const unit = 10n ** BigInt(SHARE_DECIMALS)
  const whole = value / unit
  const fraction = (value % unit)
    .toString()
    .padStart(SHARE_DECIMALS, '0')
    .slice(0, maxFractionDigits)
    .replace(/0+$/, '')
  const text = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction ? `.${fraction}` : '')
  return text === '0' && value > 0n ? `<0.${'0'.repeat(maxFractionDigits - 1)}1` : text
}

/** wei-shares → the exact decimal text an amount field takes back ("12.5", no grouping). */
export function sharesInputText(value: bigint): string {
  const unit = 10n ** BigInt(SHARE_DECIMALS)
  const fraction = (value % unit).toString().padStart(SHARE_DECIMALS, '0').replace(/0+$/, '')
  return (value / unit).toString() + (fraction ? `.${fraction}` : '')
}
