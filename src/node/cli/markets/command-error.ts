// The one error type the market commands raise: a sentence a person (or an agent) can act on and a
// stable code a program can branch on. Usage errors (a bad command line) exit 2, everything else 1.

/** Codes an agent can rely on; the sentence beside them may be reworded, the code is not. */
export type ErrorCode =
  | 'usage'
  | 'not-supported'
  | 'deployment'
  | 'unreachable'
  | 'wrong-chain'
  | 'no-key'
  | 'bad-key'
  | 'bad-api-key'
  | 'bad-response'
  | 'unknown-market'
  | 'unknown-outcome'
  | 'bad-amount'
  | 'zero-amount'
  | 'negative-amount'
  | 'below-minimum'
  | 'above-supply'
  | 'insufficient-balance'
  | 'insufficient-shares'
  | 'market-not-open'
  | 'wrong-status'
  | 'slippage-exceeded'
  | 'approval-needed'
  | 'nothing-to-redeem'
  | 'nothing-to-liquidate'
  | 'quote-mismatch'
  | 'faucet-too-soon'
  | 'reverted'
  | 'failed'

export class CommandError extends Error {
  override name = 'CommandError'
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** Process exit status for an error code: 2 for usage, 1 for the rest. */
export const exitCodeOf = (code: ErrorCode): number => (code === 'usage' ? 2 : 1)
