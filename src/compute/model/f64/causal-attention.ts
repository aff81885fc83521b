// Causal grouped-query attention of one sequence in float64: query head h reads key/value head
// floor(h / (heads / kvHeads)). Probabilities are kept for the backward pass.

export interface AttentionDims {
  /** Query rows, at positions past … past + rows − 1. */
  readonly rows: number
  /** Positions already in the key/value arrays before the query rows (0 in training). */
  readonly past: number
  readonly heads: number
  readonly kvHeads: number
  readonly hd: number
}

/**
 * o[i, h] = Σ_{j ≤ past + i} softmax_j(q[i, h]·k[j, g] / √hd)·v[j, g], where k and v hold past + rows
 * positions; probs is heads×rows×(past + rows), zero above the causal diagonal.
 */
export function attentionForward(
  q: Float64Array,
  k: Float64Array,
  v: Float64Array,
  dims: AttentionDims,
): { o: Float64Array; probs: Float64Array } {
  const { rows: s, past, heads, kvHeads, hd } = dims
  const n = past + s
  const group = heads / kvHeads
  const scale = 1 / Math.sqrt(hd)
  const o = new Float64Array(s * heads * hd)
  const probs = new Float64Array(heads * s * n)
  for (let h = 0; h < heads; h++) {
    const g = Math.floor(h / group)
    for (let i = 0; i < s; i++) {
      const qi = (i * heads + h) * hd
      const p = (h * s + i) * n
      const last = past + i
      let max = -Infinity
      for (let j = 0; j <= last; j++) {
        const kj = (j * kvHeads + g) * hd
        let dot = 0
        for (let c = 0; c < hd; c++) dot += q[qi + c]! * k[kj + c]!
        const score = dot * scale
        probs[p + j] = score
        if (score > max) max = score
      }
      let z = 0
      for (let j = 0; j <= last; j++) {
        const e = Math.exp(probs[p + j]! - max)
        probs[p + j] = e
        z += e
      }
      for (let j = 0; j <= last; j++) {
        const pj = probs[p + j]! / z
        probs[p + j] = pj
        const vj = (j * kvHeads + g) * hd
        for (let c = 0; c < hd; c++) o[qi + c] = o[qi + c]! + pj * v[vj + c]!
      }
    }
  }
  return { o, probs }
}

/** Accumulates dq, dk, dv (dk and dv over all past + rows positions) from do (same layout as o). */
export function attentionBackward(
  dOut: Float64Array,
  q: Float64Array,
  k: Float64Array,
  v: Float64Array,
  probs: Float64Array,
  dims: AttentionDims,
  dq: Float64Array,
  dk: Float64Array,
  dv: Float64Array,
): void {
  const { rows: s, past, heads, kvHeads, hd } = dims
  const n = past + s
  const group = heads / kvHeads
  const scale = 1 / Math.sqrt(hd)
  const dp = new Float64Array(n)
  for (let h = 0; h < heads; h++) {
    const g = Math.floor(h / group)
    for (let i = 0; i < s; i++) {
      const qi = (i * heads + h) * hd
      const p = (h * s + i) * n
      const last = past + i
      let weighted = 0
      for (let j = 0; j <= last; j++) {
        const vj = (j * kvHeads + g) * hd
        let dot = 0
        for (let c = 0; c < hd; c++) dot += dOut[qi + c]! * v[vj + c]!
        dp[j] = dot
        weighted += probs[p + j]! * dot
      }
      for (let j = 0; j <= last; j++) {
        const pj = probs[p + j]!
        const ds = pj * (dp[j]! - weighted) * scale
        const kj = (j * kvHeads + g) * hd
        for (let c = 0; c < hd; c++) {
          dq[qi + c] = dq[qi + c]! + ds * k[kj + c]!
          dk[kj + c] = dk[kj + c]! + ds * q[qi + c]!
          dv[kj + c] = dv[kj + c]! + pj * dOut[qi + c]!
        }
      }
    }
  }
}
