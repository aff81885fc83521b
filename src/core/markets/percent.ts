// Percentages typed by a person ("62.5") ↔ WAD fractions (1e18 = 100 %), exactly: the edge view's
// probabilities and the create-market form's trading fee.
import { WAD } from './fixed-point.ts'
import { parseDecimalAmount, type ParsedAmount } from './share-amount.ts'

/** A percent with 16 decimals is a WAD fraction: "62.5" → 0.625·1e18. */
const PERCENT_DECIMALS = 16

/** "62.5" → 0.625 WAD; a sentence naming `what` for anything that is not a percentage from 0 to 100. */
export function parsePercentWad(text: string, what: string): ParsedAmount {
  const parsed = parseDecimalAmount(text, PERCENT_DECIMALS)
  if (!parsed.ok) return { ok: false, error: `Enter ${what} as a percentage, e.g. 62.5.` }
  if (parsed.value > WAD)
    return { ok: false, error: `${what[0]!.toUpperCase()}${what.slice(1)} is at most 100 %.` }
  return parsed
}
