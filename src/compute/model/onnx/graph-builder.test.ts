import { describe, expect, it } from 'vitest'
import { GraphBuilder } from './graph-builder.ts'

describe('GraphBuilder', () => {
  it('shares one initializer between equal constants, keeps scalars apart from 1-D', () => {
    const g = new GraphBuilder()
    const [a, b, scalar, f] = [g.int64([0, 0, 4]), g.int64([0, 0, 4]), g.int64([4], true), g.float(0.5)]
    expect(a).toBe(b)
    expect(new Set([a, g.int64([4]), scalar, f]).size).toBe(4)
    expect(g.initializers.map((t) => t.dims)).toEqual([[3], [], [], [1]])
    expect(g.initializers.find((t) => t.name === a)!.data).toEqual(BigInt64Array.of(0n, 0n, 4n))
  })

  it('gives every output a fresh name and chains nodes in call order', () => {
    const g = new GraphBuilder()
    const x = g.op('Relu', ['input'])
    const [lo, hi] = g.opN('Split', [x], g.freshNames('half', 2), [{ name: 'axis', int: 1 }])
    const y = g.op('Add', [lo!, hi!], undefined, 'y')
    expect(new Set([x, lo, hi, y]).size).toBe(4)
    expect(g.nodes.map((n) => [n.opType, n.inputs, n.outputs])).toEqual([
      ['Relu', ['input'], [x]],
      ['Split', [x], [lo, hi]],
      ['Add', [lo, hi], ['y']],
    ])
  })

  it('refuses a name used twice', () => {
    const g = new GraphBuilder()
    g.initializer('w', [1], Float32Array.of(1))
    expect(() => g.op('Neg', ['x'], undefined, 'w')).toThrow('onnx graph: the name w is used twice')
    expect(() => g.int64([1, 2], true)).toThrow('an int64 scalar takes exactly one value')
  })
})
