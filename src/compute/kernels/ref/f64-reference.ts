/**
 * Float64 references the tests measure the integer ops against. Plain textbook formulas, no
 * rounding tricks: what the integer kernels approximate.
 */
export function softmaxRowF64(x: ArrayLike<number>, scale = 1): Float64Array {
  let max = -Infinity
  for (let j = 0; j < x.length; j++) max = Math.max(max, x[j]!)
  const e = Float64Array.from({ length: x.length }, (_, j) => Math.exp(scale * (x[j]! - max)))
  const sum = e.reduce((s, v) => s + v, 0)
  return e.map((v) => v / sum)
}

/** Largest |a_i − b_i|. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!))
  return m
}

/** Largest |a_i − b_i| relative to max|b|: the scale-free error used for whole-tensor bounds. */
export function maxRelToPeak(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let peak = 0
  for (let i = 0; i < b.length; i++) peak = Math.max(peak, Math.abs(b[i]!))
  return maxAbsDiff(a, b) / (peak || 1)
}

/** Central finite differences of a scalar f64 function. */
export function numericGrad(f: (x: Float64Array) => number, x: Float64Array, h = 1e-5): Float64Array {
  const g = new Float64Array(x.length)
  for (let i = 0; i < x.length; i++) {
    const keep = x[i]!
    x[i] = keep + h
    const up = f(x)
    x[i] = keep - h
    const down = f(x)
    x[i] = keep
    g[i] = (up - down) / (2 * h)
  }
  return g
}
