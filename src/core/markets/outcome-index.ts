import { fail } from './errors.ts'

/** An outcome index must name one of the market's outcomes (`OutcomeIdxOutOfBounds`, as on-chain). */
export function checkOutcome(m: { outcomeCount: number }, outcome: number): void {
  if (!Number.isInteger(outcome) || outcome < 0 || outcome >= m.outcomeCount)
    fail('OutcomeIdxOutOfBounds', BigInt(Number.isInteger(outcome) ? outcome : -1), BigInt(m.outcomeCount))
}
