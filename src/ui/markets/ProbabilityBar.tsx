// An implied probability as a thin bar (the number itself is shown next to it, labelled).
import { formatProbability } from '../../core/markets/market-format.ts'

export function ProbabilityBar({ wad }: { wad: bigint }) {
  const pct = Number((wad * 10_000n) / 10n ** 18n) / 100
  return (
    <span className="mk-bar" title={`implied probability ${formatProbability(wad)}`} aria-hidden>
      <span className="mk-bar-fill" style={{ width: `${Math.min(100, Math.max(0, pct))}%` }} />
    </span>
  )
}
