import { describe, expect, it } from 'vitest'
import { BUNDLED_KERNELS_HASH } from './kernels-hash-bundled.ts'
import { kernelsHashOf, TWIN_VERSION } from './kernels-hash.ts'
import { kernelsHashFromDisk } from './kernels-hash-node.ts'

describe('kernelsHash', () => {
  it('is the same from the files on disk (Node) and from the Vite bundle (pages)', () => {
    expect(kernelsHashFromDisk()).toBe(BUNDLED_KERNELS_HASH)
  })

  it('changes when any shader or the twin version changes', () => {
    const shaders = { 'a.wgsl': 'fn a() {}', 'b.wgsl': 'fn b() {}' }
    const base = kernelsHashOf(shaders)
    expect(kernelsHashOf({ ...shaders, 'b.wgsl': 'fn b() { }' })).not.toBe(base)
    expect(kernelsHashOf({ ...shaders, 'c.wgsl': '' })).not.toBe(base)
    expect(kernelsHashOf(shaders, TWIN_VERSION + 1)).not.toBe(base)
    expect(kernelsHashOf({ 'b.wgsl': shaders['b.wgsl'], 'a.wgsl': shaders['a.wgsl'] })).toBe(base)
  })
})
