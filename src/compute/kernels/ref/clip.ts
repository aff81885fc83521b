import { sat32, mulRne } from './rounding.ts'
import { qtensor, type QTensor } from './tensor.ts'
import { isqrt, wideDiv, wideFromFloat, WIDE_FRAC } from './wide-scalar.ts'

export interface ClipResult {
  readonly grads: QTensor[]
  /** Global L2 norm before clipping, as floor(norm·2^62) (for metrics and receipts). */
  readonly norm: bigint
}

/**
 * The norm and the clip factor from the exact sum of squares `sq` (of mantissas at 2^base, so the
 * squared norm is sq·2^(2·base)): norm = floor(√(sq·2^(2·base))·2^62), and the Q30 factor
 * floor(maxNorm·2^30/norm), or null when the norm is within maxNorm. Shared with the WGSL host, whose
 * kernel computes `sq`.
 */
export function clipScale(
  sq: bigint,
  base: number,
  maxNorm: number,
): { norm: bigint; factor: number | null } {
  // norm = √sq·2^base, as a wide (2^-62) scalar
  const twice = 2 * (WIDE_FRAC + base)
  const norm = twice >= 0 ? isqrt(sq << BigInt(twice)) : isqrt(sq >> BigInt(-twice))
  const limit = wideFromFloat(maxNorm)
  if (norm <= limit) return { norm, factor: null }
  return { norm, factor: Number(wideDiv(limit, norm) >> BigInt(WIDE_FRAC - 30)) }
}

/**
 * Global gradient-norm clipping: the squared norm is summed exactly (bigint) over all tensors, so the
 * norm is one value however the tensors are split; if it exceeds maxNorm every element is scaled by
 * the Q30 factor maxNorm/norm with one rounding (exponents unchanged).
 */
export function clipGradNorm(grads: readonly QTensor[], maxNorm: number): ClipResult {
  const base = Math.min(...grads.map((g) => g.exp))
  let sq = 0n
  for (const g of grads) {
    const shift = BigInt(g.exp - base)
    for (const v of g.data) sq += (BigInt(v) << shift) ** 2n
  }
  const { norm, factor } = clipScale(sq, base, maxNorm)
  if (factor === null) return { grads: [...grads], norm }
  const clipped = grads.map((g) =>
    qtensor(
      g.shape,
      g.exp,
      g.data.map((v) => sat32(mulRne(v, factor, 30))),
    ),
  )
  return { grads: clipped, norm }
}
