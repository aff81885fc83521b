// Shared by the seeded WGSL-vs-twin cases (kernel-cases.ts and the per-family case files).
import { I32_MAX } from '../ref/rounding.ts'
import { qtensor, type QTensor } from '../ref/tensor.ts'

/** Writes ±(2^31 − 1), ±1 and 0 over the first entries: the edges every op must carry. */
export function withEdges(t: QTensor, edges: readonly number[] = [I32_MAX, -I32_MAX, 0, 1, -1]): QTensor {
  edges.forEach((v, i) => {
    if (i < t.data.length) t.data[i] = v
  })
  return t
}

/**
 * Several results as one comparable tensor: every tensor's values in order, then their exponents (so
 * an op with several outputs, like an optimizer step, is compared whole).
 */
export function packTensors(...ts: readonly QTensor[]): QTensor {
  const data = Int32Array.from([...ts.flatMap((t) => [...t.data]), ...ts.map((t) => t.exp)])
  return qtensor([data.length], 0, data)
}
