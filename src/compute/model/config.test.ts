import { describe, expect, it } from 'vitest'
import { configHash, validateConfig } from './config.ts'
import { TINY_CONFIG } from './test-model.ts'

describe('model config', () => {
  it('validates configs and hashes them canonically', () => {
    expect(() => validateConfig({ ...TINY_CONFIG, kvHeads: 3 })).toThrow(/kvHeads/)
    expect(() => validateConfig({ ...TINY_CONFIG, dim: 36, heads: 4 })).toThrow(/even/)
    expect(configHash(TINY_CONFIG)).toBe(configHash({ ...TINY_CONFIG }))
    expect(configHash({ ...TINY_CONFIG, layers: 3 })).not.toBe(configHash(TINY_CONFIG))
  })
})
