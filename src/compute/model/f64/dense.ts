// Dense float64 building blocks of the trainer, on row-major arrays. Inner loops run over contiguous
// memory and allocate nothing; every reduction has one fixed order, so results are the same bits on
// every run and every machine with IEEE-754 doubles.

/** One output y[r, c] = Σ_i a[r, i]·b[c, i], summed in order i = 0 … k − 1. */
function dot(a: Float64Array, ar: number, b: Float64Array, bc: number, k: number): number {
  let acc = 0
  for (let i = 0; i < k; i++) acc += a[ar + i]! * b[bc + i]!
  return acc
}

/**
 * y[m × n] = a[m × k]·b[n × k]ᵀ. Blocked two rows by four columns so each loaded value feeds two to
 * four multiply-adds (measured about 3× the plain loop in V8); every output is still one dot product
 * summed in order i = 0 … k − 1, so the blocking does not change a single bit.
 */
export function matmulNT(a: Float64Array, b: Float64Array, m: number, k: number, n: number): Float64Array {
  const y = new Float64Array(m * n)
  const n4 = n - (n % 4)
  let r = 0
  for (; r + 1 < m; r += 2) {
    const a0 = r * k
    const a1 = a0 + k
    const y0 = r * n
    const y1 = y0 + n
    for (let c = 0; c < n4; c += 4) {
      const b0 = c * k
      const b1 = b0 + k
      const b2 = b1 + k
      const b3 = b2 + k
      let s00 = 0
      let s01 = 0
      let s02 = 0
      let s03 = 0
      let s10 = 0
      let s11 = 0
      let s12 = 0
      let s13 = 0
      for (let i = 0; i < k; i++) {
        const x0 = a[a0 + i]!
        const x1 = a[a1 + i]!
        const w0 = b[b0 + i]!
        const w1 = b[b1 + i]!
        const w2 = b[b2 + i]!
        const w3 = b[b3 + i]!
        s00 += x0 * w0
        s01 += x0 * w1
        s02 += x0 * w2
        s03 += x0 * w3
        s10 += x1 * w0
        s11 += x1 * w1
        s12 += x1 * w2
        s13 += x1 * w3
      }
      y[y0 + c] = s00
      y[y0 + c + 1] = s01
      y[y0 + c + 2] = s02
      y[y0 + c + 3] = s03
      y[y1 + c] = s10
      y[y1 + c + 1] = s11
      y[y1 + c + 2] = s12
      y[y1 + c + 3] = s13
    }
    for (let c = n4; c < n; c++) {
      y[y0 + c] = dot(a, a0, b, c * k, k)
      y[y1 + c] = dot(a, a1, b, c * k, k)
    }
  }
  if (r < m) for (let c = 0; c < n; c++) y[r * n + c] = dot(a, r * k, b, c * k, k)
  return y
}

/** The [cols × rows] transpose of a row-major [rows × cols] matrix. */
export function transpose(a: Float64Array, rows: number, cols: number): Float64Array {
  const t = new Float64Array(rows * cols)
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = a[r * cols + c]!
  return t
}

function addInPlace(target: Float64Array, values: Float64Array): void {
  for (let i = 0; i < values.length; i++) target[i] = target[i]! + values[i]!
}

/** y[r, o] = Σ_i x[r, i]·w[o, i]: x is rows×inn, w is out×inn (torch.nn.Linear's layout). */
export function linearForward(
  x: Float64Array,
  w: Float64Array,
  rows: number,
  inn: number,
  out: number,
): Float64Array {
  return matmulNT(x, w, rows, inn, out)
}

/** dx[r, i] += Σ_o dy[r, o]·w[o, i]. */
export function linearBackwardInput(
  dy: Float64Array,
  w: Float64Array,
  dx: Float64Array,
  rows: number,
  inn: number,
  out: number,
): void {
  addInPlace(dx, matmulNT(dy, transpose(w, out, inn), rows, out, inn))
}

/** dw[o, i] += Σ_r dy[r, o]·x[r, i]. */
export function linearBackwardWeight(
  dy: Float64Array,
  x: Float64Array,
  dw: Float64Array,
  rows: number,
  inn: number,
  out: number,
): void {
  addInPlace(dw, matmulNT(transpose(dy, rows, out), transpose(x, rows, inn), out, rows, inn))
}

/** y = x / √(mean(x²) + eps) · g per row; also returns each row's 1/√(…), which the backward needs. */
export function rmsNormForward(
  x: Float64Array,
  g: Float64Array,
  rows: number,
  d: number,
  eps: number,
): { y: Float64Array; inv: Float64Array } {
  const y = new Float64Array(rows * d)
  const inv = new Float64Array(rows)
  for (let r = 0; r < rows; r++) {
    let ss = 0
    for (let j = 0; j < d; j++) ss += x[r * d + j]! ** 2
    const s = 1 / Math.sqrt(ss / d + eps)
    inv[r] = s
    for (let j = 0; j < d; j++) y[r * d + j] = x[r * d + j]! * s * g[j]!
  }
  return { y, inv }
}

/** Accumulates dx and dg of y = x·inv·g, where inv = (mean(x²) + eps)^(−1/2) depends on x. */
export function rmsNormBackward(
  dy: Float64Array,
  x: Float64Array,
  inv: Float64Array,
  g: Float64Array,
  dx: Float64Array,
  dg: Float64Array,
  rows: number,
  d: number,
): void {
  for (let r = 0; r < rows; r++) {
    const s = inv[r]!
    let dot = 0
    for (let j = 0; j < d; j++) {
      const gy = dy[r * d + j]! * g[j]!
      dot += gy * x[r * d + j]!
      dg[j] = dg[j]! + dy[r * d + j]! * x[r * d + j]! * s
    }
    const c = (dot * s * s * s) / d
    for (let j = 0; j < d; j++)
      dx[r * d + j] = dx[r * d + j]! + dy[r * d + j]! * g[j]! * s - x[r * d + j]! * c
  }
}

/** cos and sin of RoPE angles pos·θ^(−2i/hd), [positions × hd/2], by the textbook formula. */
export interface RopeAngles {
  readonly half: number
  readonly cos: Float64Array
  readonly sin: Float64Array
}

export function ropeAngles(positions: number, hd: number, theta: number): RopeAngles {
  const half = hd / 2
  const cos = new Float64Array(positions * half)
  const sin = new Float64Array(positions * half)
  for (let pos = 0; pos < positions; pos++)
    for (let i = 0; i < half; i++) {
      const angle = pos * theta ** (-(2 * i) / hd)
      cos[pos * half + i] = Math.cos(angle)
      sin[pos * half + i] = Math.sin(angle)
    }
  return { half, cos, sin }
}

/**
 * Rotate-half RoPE in place on rows×heads×hd, row r at position firstPosition + r. `inverse` rotates
 * by −angle: the rotation is orthogonal, so that is exactly the backward of the forward rotation.
 */
export function ropeInPlace(
  x: Float64Array,
  rows: number,
  heads: number,
  angles: RopeAngles,
  inverse: boolean,
  firstPosition = 0,
) {
  const { half, cos, sin } = angles
  const sign = inverse ? -1 : 1
  for (let r = 0; r < rows; r++)
    for (let h = 0; h < heads; h++) {
      const base = (r * heads + h) * 2 * half
      const at = (firstPosition + r) * half
      for (let i = 0; i < half; i++) {
        const c = cos[at + i]!
        const s = sign * sin[at + i]!
        const a = x[base + i]!
        const b = x[base + half + i]!
        x[base + i] = a * c - b * s
        x[base + half + i] = b * c + a * s
      }
    }
}
