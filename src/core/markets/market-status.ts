// A market's status code as words and a tone for the UI (research/delphi.md §2).
import { MARKET_STATUS } from './market-snapshot.ts'

export type StatusTone = 'good' | 'warn' | 'bad' | 'muted'

const LABELS: Record<number, { label: string; tone: StatusTone }> = {
  [MARKET_STATUS.open]: { label: 'Open', tone: 'good' },
  [MARKET_STATUS.awaitingSettlement]: { label: 'Awaiting settlement', tone: 'warn' },
  [MARKET_STATUS.settled]: { label: 'Settled', tone: 'muted' },
  [MARKET_STATUS.expired]: { label: 'Expired', tone: 'bad' },
  [MARKET_STATUS.failed]: { label: 'Failed', tone: 'bad' },
}

export function statusLabel(status: number): { label: string; tone: StatusTone } {
  return LABELS[status] ?? { label: `Status ${status}`, tone: 'muted' }
}

/** The status filter choices of the list, in order. */
export const STATUS_FILTERS: readonly { value: number | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  ...Object.values(MARKET_STATUS).map((value) => ({ value, label: statusLabel(value).label })),
]
