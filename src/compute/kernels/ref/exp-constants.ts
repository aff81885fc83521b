/**
 * The exp/log family's constants, shared by the TS definitions (exp.ts, log.ts) and the wasm kernels
 * (wasm/kernels.ts), which must use the very same integers.
 */

/** round(log2(e)·2^30) and round(ln 2·2^30): the only constants of the exp/log family. */
export const LOG2E_Q30 = 1549082005
export const LN2_Q30 = 744261118
/** round(2^30/n!) for n = 0..10: Taylor coefficients of e^-u on u ∈ [0, ln 2) (truncation < 5e-10). */
export const EXP_TAYLOR: readonly number[] = [
  1073741824, 1073741824, 536870912, 178956971, 44739243, 8947849, 1491308, 213044, 26631, 2959, 296,
]
