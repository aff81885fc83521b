/**
 * Errors thrown by the market maths. Each one carries the name of the Solidity custom error the
 * gateway reverts with in the same situation (`err.name`), and that error's arguments in
 * declaration order (`err.args`), so a client can compare a local quote and an on-chain revert by
 * name and arguments alone.
 *
 * Names from the Delphi gateway interface (research/delphi.md, "Exact interface" and §9) are used
 * where one exists; the names in {@link INVENTED_ERROR_NAMES} are ours (the interface has no error
 * for those situations) and the tabswarm contracts must declare them with the same arguments.
 */
export class MarketMathError extends Error {
  readonly args: readonly bigint[]

  constructor(name: string, args: readonly bigint[] = []) {
    super(args.length === 0 ? `${name}()` : `${name}(${args.map(String).join(', ')})`)
    this.name = name
    this.args = args
  }
}

/** Errors we named ourselves (not present in Delphi's published gateway interface). */
export const INVENTED_ERROR_NAMES = [
  'OutcomeIdxOutOfBounds', // (outcomeIdx, outcomeCount) a trade or view on an outcome that does not exist
  'OutcomeCountTooLow', // (outcomeCount, min)
  'OutcomeCountTooHigh', // (outcomeCount, max)
  'KTooLow', // (k, min)
  'KTooHigh', // (k, max)
  'TradingFeeTooLow', // (tradingFee, min)
  'TradingFeeTooHigh', // (tradingFee, max)
  'InitialDepositTooLow', // (initialDeposit, min)
  'InitialDepositTooHigh', // (initialDeposit, max)
  'LiquidityParameterTooLow', // LMSR (b, min)
  'LiquidityParameterTooHigh', // LMSR (b, max)
  'NegativeValue', // (value) a negative bigint where a uint256 is expected (cannot happen on-chain)
  'Uint256Overflow', // (value) a value past 2^256-1 (on-chain: a checked-arithmetic panic)
  'DivisionByZero', // () (on-chain: panic 0x12)
  'LnRatioBelowOne', // (num, den) internal: ln of a ratio below 1 (never reached by the LMSR paths)
] as const

export function fail(name: string, ...args: bigint[]): never {
  throw new MarketMathError(name, args)
}
