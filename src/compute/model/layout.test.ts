import { describe, expect, it } from 'vitest'
import { parameterLayout } from './layout.ts'
import { TINY_CONFIG } from './test-model.ts'

describe('parameter layout', () => {
  it('lays out Qwen2-named parameters, with lm_head only when untied', () => {
    const tied = parameterLayout(TINY_CONFIG)
    expect(tied).toHaveLength(1 + 2 * 9 + 1)
    expect(tied[2]).toEqual({
      name: 'model.layers.0.self_attn.q_proj.weight',
      shape: [32, 32],
      kind: 'linear',
    })
    expect(parameterLayout({ ...TINY_CONFIG, tiedEmbeddings: false }).at(-1)?.name).toBe('lm_head.weight')
  })
})
