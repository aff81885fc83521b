import { describe, expect, it } from 'vitest'
import { toFloat } from '../kernels/ref/tensor.ts'
import { INIT_STD, initParams } from './params.ts'
import { TINY_CONFIG } from './test-model.ts'

const params = initParams(TINY_CONFIG, [1, 2])

describe('parameter init', () => {
  it('initialises deterministically from the seed with the intended spread', () => {
    const again = initParams(TINY_CONFIG, [1, 2])
    for (const [name, t] of params) expect(again.get(name)!.data).toEqual(t.data)
    expect(initParams(TINY_CONFIG, [1, 3]).get('model.embed_tokens.weight')!.data).not.toEqual(
      params.get('model.embed_tokens.weight')!.data,
    )
    const w = toFloat(params.get('model.layers.0.mlp.up_proj.weight')!)
    const std = Math.sqrt(w.reduce((s, x) => s + x * x, 0) / w.length)
    expect(Math.abs(std - INIT_STD)).toBeLessThan(0.002)
    expect(toFloat(params.get('model.norm.weight')!).every((x) => x === 1)).toBe(true)
  })
})
