// Rates from the net-store's one-per-second samples of cumulative counters.
import type { NetSample } from '../host/stores/net-store.ts'

export interface NetRates {
  messagesIn: number
  messagesOut: number
  bytesIn: number
  bytesOut: number
  rejected: number
}

/** Per-second rates between two samples; null when they are not in time order. */
export function ratesBetween(a: NetSample, b: NetSample): NetRates | null {
  const seconds = (b.t - a.t) / 1000
  if (!(seconds > 0)) return null
  const rate = (x: number, y: number) => Math.max(0, y - x) / seconds
  return {
    messagesIn: rate(a.messagesIn, b.messagesIn),
    messagesOut: rate(a.messagesOut, b.messagesOut),
    bytesIn: rate(a.bytesIn, b.bytesIn),
    bytesOut: rate(a.bytesOut, b.bytesOut),
    rejected: rate(a.rejected, b.rejected),
  }
}

/** The current rates: from the last two samples, null with fewer than two. */
export function currentRates(history: readonly NetSample[]): NetRates | null {
  const a = history[history.length - 2]
  const b = history[history.length - 1]
  return a && b ? ratesBetween(a, b) : null
}

/** Messages per second in and out between each pair of consecutive samples (one shorter than history). */
export function messageRateSeries(history: readonly NetSample[]): { in: number[]; out: number[] } {
  const series = { in: [] as number[], out: [] as number[] }
  for (let i = 1; i < history.length; i++) {
    const r = ratesBetween(history[i - 1]!, history[i]!)
    series.in.push(r?.messagesIn ?? 0)
    series.out.push(r?.messagesOut ?? 0)
  }
  return series
}
