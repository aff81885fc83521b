import { describe, expect, it } from 'vitest'
import { maxRelToPeak } from './f64-reference.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { sigmoidQ30, silu, swiglu, swigluBackward } from './silu.ts'
import { fromFloat, toFloat } from './tensor.ts'

const rand = seededRandom(32)

describe('SiLU / SwiGLU vs f64 (inputs in [−12, 12])', () => {
  const n = 400
  const gate = fromFloat([n], -20, uniformArray(rand, n, -12, 12))
  const up = fromFloat([n], -20, uniformArray(rand, n, -2, 2))
  const siluF = (v: number) => v / (1 + Math.exp(-v))

  it('silu: |error| ≤ 2e-6 absolute; swiglu ≤ 2e-6 of the peak', () => {
    expect(maxRelToPeak(toFloat(silu(gate)), toFloat(gate).map(siluF)) * 12).toBeLessThan(2e-6)
    const want = toFloat(gate).map((g, i) => siluF(g) * toFloat(up)[i]!)
    expect(maxRelToPeak(toFloat(swiglu(gate, up, -20)), want)).toBeLessThan(2e-6)
  })

  it('backward matches the analytic f64 derivative within 1e-5 of the peak', () => {
    const dy = fromFloat([n], -20, uniformArray(rand, n, -1, 1))
    const [gf, uf, dyf] = [toFloat(gate), toFloat(up), toFloat(dy)]
    const { dGate, dUp } = swigluBackward(gate, up, dy)
    const sig = (v: number) => 1 / (1 + Math.exp(-v))
    const dGateF = gf.map((g, i) => dyf[i]! * uf[i]! * sig(g) * (1 + g * (1 - sig(g))))
    expect(maxRelToPeak(toFloat(dGate), dGateF)).toBeLessThan(1e-5)
    expect(
      maxRelToPeak(
        toFloat(dUp),
        gf.map((g, i) => dyf[i]! * siluF(g)),
      ),
    ).toBeLessThan(1e-5)
  })
})

describe('integer sigmoid vs f64', () => {
  const sigmoidRand = seededRandom(77)
  const N = 20000

  it('sigmoid: |error| ≤ 1e-8 absolute on [−64, 64], exactly symmetric', () => {
    let abs = 0
    for (let i = 0; i < N; i++) {
      const x = Math.round((sigmoidRand() * 128 - 64) * 2 ** 16)
      abs = Math.max(abs, Math.abs(sigmoidQ30(x, -16) * 2 ** -30 - 1 / (1 + Math.exp(-x * 2 ** -16))))
      expect(sigmoidQ30(x, -16) + sigmoidQ30(-x, -16)).toBe(2 ** 30)
    }
    expect(abs).toBeLessThan(1e-8)
  })
})
