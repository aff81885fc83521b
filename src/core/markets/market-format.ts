// Market numbers for people. A price is an amount of collateral per share ("0.62 tUSD"); an implied
// probability is a percentage ("38.4 %"): the two are formatted by different functions and never stand
// in for each other.
import { formatTokenAmount } from './token-amount.ts'

/** 1e18 = 100 % → "38.42 %" (rounded down to `digits` decimals). */
export function formatProbability(wad: bigint, digits = 2): string {
  const scaled = (wad * 100n * 10n ** BigInt(digits)) / 10n ** 18n
  const text = scaled.toString().padStart(digits + 1, '0')
  const whole = text.slice(0, text.length - digits)
  return digits === 0 ? `${whole} %` : `${whole}.${text.slice(-digits)} %`
}

/** A spot price (units of 10^-decimals tokens per whole share) → "0.6172 tUSD". */
export function formatPrice(value: bigint, decimals: number, symbol: string, digits = 4): string {
  return formatTokenAmount(value, decimals, { maxFractionDigits: digits, symbol })
}

/** Signed basis points → "+1.25 %" / "−0.40 %" / "0.00 %". */
export function formatBpsPercent(bps: number): string {
  const sign = bps > 0 ? '+' : bps < 0 ? '−' : ''
  return `${sign}${(Math.abs(bps) / 100).toFixed(2)} %`
}

/** 1e18 = 100 % fee → "2 %" / "0.5 %". */
export function formatFee(wad: bigint): string {
  const bps = Number((wad * 10_000n) / 10n ** 18n)
  return `${Number((bps / 100).toFixed(2))} %`
}

/** A deadline (unix seconds) → "30 Dec 2026, 01:23" in the viewer's zone (or `timeZone`). */
export function formatDeadline(unixSeconds: bigint, timeZone?: string): string {
  return new Date(Number(unixSeconds) * 1000).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone,
  })
}

/** Time from `nowMs` to a deadline: "in 3 d", "in 5 h", "in 12 min", "2 h ago". */
export function formatUntil(unixSeconds: bigint, nowMs: number): string {
  const diff = Number(unixSeconds) - Math.floor(nowMs / 1000)
  const abs = Math.abs(diff)
  const text =
    abs < 60
      ? `${abs} s`
      : abs < 3600
        ? `${Math.floor(abs / 60)} min`
        : abs < 86_400 * 2
          ? `${Math.floor(abs / 3600)} h`
          : `${Math.floor(abs / 86_400)} d`
  return diff >= 0 ? `in ${text}` : `${text} ago`
}
