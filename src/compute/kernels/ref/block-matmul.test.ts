import { describe, expect, it, vi } from 'vitest'
import { blockMatmul, type BlockProduct, type Operand } from './block-matmul.ts'
import { roundOnce } from './integer-oracle.ts'
import { seededRandom } from './seeded-random.ts'

const rand = seededRandom(57)
const ints = (n: number, bits: number) =>
  Int32Array.from({ length: n }, () => Math.round((rand() * 2 - 1) * (2 ** bits - 1)))

/** Element (r, kk) of an operand view, read the long way. */
function element(t: Operand, r: number, kk: number): number {
  const groups = t.groups ?? 1
  const step = Math.floor(kk / groups)
  return t.data[r * t.rowStride + step * t.kStride + (kk % groups) * (t.groupStride ?? 0)]!
}

interface Case {
  readonly m: number
  readonly n: number
  readonly steps: number
  readonly groups: number
  readonly bBits: number
  /** A causal block: row tile t's terms below kk = 4t·groups are 0, and it needs its first 4t + 4 columns. */
  readonly causal: boolean
}

/** A product with its operands stored inside larger arrays (strided, grouped) and its output in place. */
function product(c: Case): BlockProduct {
  const k = c.steps * c.groups
  // A stored transposed with the groups' blocks one after another, as attention's dS is for dK
  const aData = ints(c.groups * c.steps * c.m + 7, 15)
  const a: Operand = {
    data: aData.subarray(7),
    rows: c.m,
    rowStride: 1,
    kStride: c.m,
    groups: c.groups,
    groupStride: c.steps * c.m,
  }
  if (c.causal)
    for (let r = 0; r < c.m; r++)
      for (let kk = 0; kk < 4 * Math.floor(r / 4) * c.groups; kk++) {
        const step = Math.floor(kk / c.groups)
        aData[7 + r + step * c.m + (kk % c.groups) * c.steps * c.m] = 0
      }
  const cols = 3 * c.n
  const b: Operand = { data: ints(k * cols, c.bBits), rows: c.n, rowStride: 1, kStride: cols }
  const out = new Int32Array(c.m * 2 * c.n + 5).fill(-5) // a sentinel where nothing may be written
  return {
    a,
    b,
    k,
    aExps: Int32Array.from({ length: c.m }, () => -15 - Math.floor(rand() * 4)),
    bExps: Int32Array.from({ length: c.n }, () => -20 + Math.floor(rand() * 3)),
    outExp: -18,
    aMax: 2 ** 15,
    bMax: 2 ** c.bBits,
    out,
    at: 5,
    stride: 2 * c.n,
    tile: c.causal ? (t) => ({ cols: Math.min(c.n, 4 * t + 4), from: 4 * t * c.groups, to: k }) : undefined,
  }
}

function check(p: BlockProduct): void {
  blockMatmul(p)
  for (let i = 0; i < p.a.rows; i++)
    for (let j = 0; j < p.stride; j++) {
      const cols = p.tile?.(Math.floor(i / 4)).cols ?? p.b.rows
      const got = p.out[p.at + i * p.stride + j]
      if (j >= cols) {
        if (got !== -5) expect([i, j, got]).toBe('left as it was')
        continue
      }
      let sum = 0n
      for (let kk = 0; kk < p.k; kk++) sum += BigInt(element(p.a, i, kk)) * BigInt(element(p.b, j, kk))
      const want = roundOnce(sum, p.aExps[i]! + p.bExps[j]!, p.outExp)
      if (got !== want) expect([i, j, got]).toBe(want)
    }
  expect([...p.out.subarray(0, 5)]).toEqual([-5, -5, -5, -5, -5])
}

const CASES: Case[] = [
  { m: 13, n: 16, steps: 20, groups: 1, bBits: 15, causal: false },
  { m: 13, n: 16, steps: 20, groups: 2, bBits: 15, causal: true }, // attention's dK: grouped, causal
  { m: 2, n: 5, steps: 9, groups: 3, bBits: 12, causal: false }, // fewer rows than a tile (decode)
  { m: 9, n: 6, steps: 300, groups: 1, bBits: 31, causal: false }, // wide: sums carried past 2^53
  { m: 9, n: 6, steps: 150, groups: 2, bBits: 31, causal: true },
]

describe('blockMatmul: the exact sum of each block rounded once, in place', () => {
  it.each(CASES)('through the wasm tiles: %o', (c) => check(product(c)))
})

describe('blockMatmul without the wasm kernels', () => {
  it.each(CASES)('through matmul, the same bits: %o', async (c) => {
    vi.resetModules()
    vi.doMock('./wasm/kernels.ts', async (original) => ({
      ...(await original<typeof import('./wasm/kernels.ts')>()),
      packMatmul: () => undefined,
    }))
    const fallback = await import('./block-matmul.ts')
    const p = product(c)
    fallback.blockMatmul(p)
    const wasm = { ...p, out: p.out.slice().fill(-5) }
    blockMatmul(wasm)
    expect(p.out).toEqual(wasm.out)
    vi.doUnmock('./wasm/kernels.ts')
  })
})
