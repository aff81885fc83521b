import { describe, expect, it } from 'vitest'
import { randomIntTensor } from '../integer-oracle.ts'
import { fitShift } from '../narrow.ts'
import { I16_MAX, I32_MAX, mulRne, rne, rneBig, rneI32, sat32 } from '../rounding.ts'
import { seededRandom } from '../seeded-random.ts'
import { sigmoidQ30 } from '../silu.ts'
import {
  ROPE_GUARD,
  addRowWasm,
  centerRowsWasm,
  narrowRowsWasm,
  elementwiseKernelBytes,
  elementwiseKernels,
  ropeRowsWasm,
  scaleRowsWasm,
  swigluBackWasm,
} from './elementwise-kernels.ts'

const rand = seededRandom(29)
const ints = (n: number, bits: number) => randomIntTensor(rand, [n], 0, bits).data

describe('the second wasm module', () => {
  it('assembles into a valid module on the first one’s memory, below 4 KB', () => {
    expect(WebAssembly.validate(elementwiseKernelBytes())).toBe(true)
    expect(elementwiseKernels).toBe(true)
    expect(elementwiseKernelBytes().length).toBeLessThan(4096)
  })

  it('addRow: the exact aligned sum rounded once, saturated, ties both ways, every shift it covers', () => {
    const edges = [I32_MAX, -I32_MAX, 1, -1, 0, 3, -3]
    for (const [sa, sb, s] of [
      [0, 0, 0],
      [0, 5, 1],
      [21, 0, 9],
      [30, 30, 60],
      [0, 30, 31],
      [7, 2, 0],
      [12, 30, 40],
    ] as const) {
      const a = ints(997, 31)
      const b = ints(997, 31)
      a.set(edges)
      b.set(
        edges.map((v) => -v),
        edges.length,
      )
      // ties: sums of exactly half a unit, odd and even quotients
      if (s > 0)
        for (let i = 0; i < 8; i++) {
          a[20 + i] = sa === 0 && s <= 30 ? (2 * i + 1) * 2 ** (s - 1) : a[20 + i]!
          b[20 + i] = 0
        }
      const want = a.map((v, i) =>
        sat32(rneBig((BigInt(v) << BigInt(sa)) + (BigInt(b[i]!) << BigInt(sb)), s)),
      )
      const out = new Int32Array(a.length)
      expect(addRowWasm(a, b, sa, sb, s, out)).toBe(true)
      expect(out).toEqual(want)
    }
    // outside its domain the caller runs the TS definition
    expect(addRowWasm(new Int32Array(2), new Int32Array(2), 31, 0, 0, new Int32Array(2))).toBe(false)
    expect(addRowWasm(new Int32Array(2), new Int32Array(2), 0, 0, 61, new Int32Array(2))).toBe(false)
  })

  it('ropeRows: each pair rotated by its row’s angle, both products and their sum rounded as rope’s definition', () => {
    const [rows, heads, half] = [7, 3, 8]
    const width = heads * 2 * half
    const x = ints(rows * width, 31)
    x.set([I32_MAX, -I32_MAX, I32_MAX, -I32_MAX])
    const cos = ints(rows * half, 30)
    const sin = ints(rows * half, 30)
    cos.set([2 ** 30, -(2 ** 30), 0, 2 ** 29])
    sin.set([2 ** 30, 2 ** 30, -(2 ** 30), 2 ** 9])
    const want = new Int32Array(x.length)
    const g = 30 - ROPE_GUARD
    for (let r = 0; r < rows; r++)
      for (let h = 0; h < heads; h++)
        for (let i = 0; i < half; i++) {
          const ia = r * width + h * 2 * half + i
          const [a, b, c, sv] = [x[ia]!, x[ia + half]!, cos[r * half + i]!, sin[r * half + i]!]
          want[ia] = sat32(rne(mulRne(a, c, g) + mulRne(b, -sv, g), ROPE_GUARD))
          want[ia + half] = sat32(rne(mulRne(b, c, g) + mulRne(a, sv, g), ROPE_GUARD))
        }
    const out = new Int32Array(x.length)
    expect(ropeRowsWasm(x, cos, sin, width, half, out)).toBe(true)
    expect(out).toEqual(want)
  })

  it('scaleRows: each row times its own scalar at its own shift, saturated, shift 0 included', () => {
    const [rows, cols] = [9, 37]
    const x = ints(rows * cols, 31)
    x.set([I32_MAX, -I32_MAX, 1, -1, 0])
    const r = ints(rows, 31)
    r[0] = I32_MAX
    const s = Int32Array.from({ length: rows }, (_, i) => [0, 1, 13, 30, 31, 45, 60, 7, 22][i]!)
    const want = x.map((v, i) => sat32(mulRne(v, r[Math.floor(i / cols)]!, s[Math.floor(i / cols)]!)))
    const out = new Int32Array(x.length)
    expect(scaleRowsWasm(x, r, s, cols, out)).toBe(true)
    expect(out).toEqual(want)
    expect(
      scaleRowsWasm(
        x,
        r,
        Int32Array.from(s, (v, i) => (i === 3 ? -1 : v)),
        cols,
        out,
      ),
    ).toBe(false)
  })

  it('centerRows: v·2^guard less the rounded x̂·mean of its row, rounded once, saturated', () => {
    const [rows, cols, guard, s] = [11, 29, 17, 20]
    const v = ints(rows * cols, 31)
    const xhat = ints(rows * cols, 27)
    const mean = ints(rows, 31)
    v.set([I32_MAX, -I32_MAX, 0, 1])
    const st = Int32Array.from({ length: rows }, (_, i) => 14 + 3 * i)
    const want = v.map((vi, i) => {
      const row = Math.floor(i / cols)
      return sat32(rne(vi * 2 ** guard - mulRne(xhat[i]!, mean[row]!, st[row]!), s))
    })
    const out = new Int32Array(v.length)
    expect(centerRowsWasm(v, xhat, mean, st, guard, s, out)).toBe(true)
    expect(out).toEqual(want)
    expect(centerRowsWasm(v, xhat, mean, st, 31, s, out)).toBe(false)
  })

  it('swigluBack: silu, silu′ and both products of SwiGLU’s backward, as its elementwise definition', () => {
    const n = 2001
    const [gateExp, shifts] = [-22, { up: 27, t: 31, gate: 22, dGate: 29 }]
    const gate = ints(n, 31)
    const up = ints(n, 31)
    const dy = ints(n, 31)
    gate.set([I32_MAX, -I32_MAX, 0, 1, -1])
    dy.set([I32_MAX, -I32_MAX, I32_MAX, -I32_MAX, 0])
    up.set([I32_MAX, I32_MAX, -I32_MAX, 5, 7])
    const sig = gate.map((x) => sigmoidQ30(x, gateExp))
    const [wantUp, wantGate] = [new Int32Array(n), new Int32Array(n)]
    for (let i = 0; i < n; i++) {
      const s = sat32(mulRne(gate[i]!, sig[i]!, 30))
      wantUp[i] = sat32(mulRne(dy[i]!, s, shifts.up))
      const t = sat32(mulRne(dy[i]!, up[i]!, shifts.t))
      const q = mulRne(sig[i]!, 2 ** 30 - sig[i]!, 30)
      const grad = (sig[i]! + mulRne(gate[i]!, q, shifts.gate)) | 0
      wantGate[i] = sat32(mulRne(t, grad, shifts.dGate))
    }
    const [dUp, dGate] = [new Int32Array(n), new Int32Array(n)]
    expect(swigluBackWasm(gate, up, dy, sig, shifts, dUp, dGate)).toBe(true)
    expect(dUp).toEqual(wantUp)
    expect(dGate).toEqual(wantGate)
    expect(swigluBackWasm(gate, up, dy, sig, { ...shifts, up: -1 }, dUp, dGate)).toBe(false)
  })

  it('narrowRows: each row’s fitShift of its max|x| and its mantissas rounded by it', () => {
    const cols = 23
    const rows = [
      ints(cols, 31),
      ints(cols, 15), // fits: no shift
      ints(cols, 20),
      new Int32Array(cols), // all zero
      Int32Array.from({ length: cols }, (_, j) => (j === 3 ? -(2 ** 31) : 5)), // −2^31
      Int32Array.from({ length: cols }, (_, j) => (j === 0 ? 65535 : -3)), // rounds up past 2^15 − 1
      Int32Array.from({ length: cols }, (_, j) => (j % 2 === 0 ? 98303 : -98303)), // ties at s = 2
    ]
    const x = new Int32Array(rows.length * cols)
    rows.forEach((r, i) => x.set(r, i * cols))
    const [out, shifts] = [new Int32Array(x.length), new Int32Array(rows.length)]
    expect(narrowRowsWasm(x, cols, out, shifts)).toBe(true)
    rows.forEach((r, i) => {
      const s = fitShift(Math.max(...Array.from(r, Math.abs)), I16_MAX)
      expect(shifts[i]).toBe(s)
      expect(out.subarray(i * cols, (i + 1) * cols)).toEqual(r.map((v) => rneI32(v, s)))
    })
    expect(shifts.subarray(1, 6)).toEqual(Int32Array.of(0, shifts[2]!, 0, 17, 2))
  })
})
