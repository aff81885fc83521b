// An outcome on the command line: its index (0-based, as `show` lists them) or its label.
import { outcomeLabel, type MarketSnapshot } from '../../../core/markets/market-snapshot.ts'
import { CommandError } from './command-error.ts'

export function parseOutcome(m: MarketSnapshot, text: string): number {
  const t = text.trim()
  const labels = Array.from({ length: m.outcomeCount }, (_, i) => outcomeLabel(m, i))
  const byLabel = labels.findIndex((l) => l.toLowerCase() === t.toLowerCase())
  if (byLabel >= 0) return byLabel
  if (/^\d+$/.test(t) && Number(t) < m.outcomeCount) return Number(t)
  throw new CommandError(
    'unknown-outcome',
    `This market has no outcome “${text}”: use an index from 0 to ${m.outcomeCount - 1} or a label (${labels.map((l) => `“${l}”`).join(', ')}).`,
  )
}
