import { describe, expect, it } from 'vitest'
import { parityMismatches } from './kernel-parity.ts'

const bits = (exp: number, ...data: number[]) => ({ exp, data })

describe('parityMismatches', () => {
  const twin = { rmsnorm: [bits(-20, 1, 2, 3), bits(-20, 4, 5, 6, 7, 8, 9)] }
  const names = { rmsnorm: ['[6, 64]', '[3, 1]'] }

  it('finds nothing when every workgroup size gives the twin’s bits', () => {
    expect(parityMismatches({ twin, gpu: { rmsnorm: [twin.rmsnorm, twin.rmsnorm] } }, names)).toEqual([])
  })

  it('names the case, the workgroup size, how many values differ and the first ones', () => {
    const wrong = [twin.rmsnorm[0]!, bits(-20, 4, 50, 6, 70, 80, 9)]
    expect(parityMismatches({ twin, gpu: { rmsnorm: [twin.rmsnorm, wrong] } }, names)).toEqual([
      {
        suite: 'rmsnorm',
        workgroup: 1,
        index: 1,
        name: '[3, 1]',
        exp: [-20, -20],
        differing: 3,
        of: 6,
        firstAt: 1,
        twin: [5, 6, 7, 8],
        gpu: [50, 6, 70, 80],
      },
    ])
  })

  it('reports an exponent-only difference and a missing result', () => {
    const found = parityMismatches({ twin, gpu: { rmsnorm: [[bits(-19, 1, 2, 3)]] } }, names)
    expect(found.map((m) => [m.name, m.exp, m.differing])).toEqual([
      ['[6, 64]', [-20, -19], 0],
      ['[3, 1]', [-20, Number.NaN], 6],
    ])
  })
})
