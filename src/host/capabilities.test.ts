import { describe, expect, it } from 'vitest'
import { detectCapabilities, type NavigatorLike } from './capabilities.ts'

const info = { vendor: 'nvidia', architecture: 'ampere', device: '', description: 'RTX 3080' }

describe('detectCapabilities', () => {
  it('reads adapter.info, cores and memory', async () => {
    const nav: NavigatorLike = {
      hardwareConcurrency: 16,
      deviceMemory: 8,
      gpu: { requestAdapter: async () => ({ info: { ...info, isFallbackAdapter: false } }) },
    }
    expect(await detectCapabilities(nav)).toEqual({
      webgpu: { ...info, isFallbackAdapter: false },
      cores: 16,
      memoryGb: 8,
    })
  })

  it('takes the fallback flag from the info, or else from the adapter', async () => {
    const onInfo: NavigatorLike = {
      gpu: {
        requestAdapter: async () => ({
          info: { ...info, isFallbackAdapter: true },
          isFallbackAdapter: false,
        }),
      },
    }
    const onAdapter: NavigatorLike = {
      gpu: { requestAdapter: async () => ({ info, isFallbackAdapter: true }) },
    }
    expect((await detectCapabilities(onInfo)).webgpu?.isFallbackAdapter).toBe(true)
    expect((await detectCapabilities(onAdapter)).webgpu?.isFallbackAdapter).toBe(true)
  })

  it('reports an adapter without info with empty strings', async () => {
    const nav: NavigatorLike = { hardwareConcurrency: 2, gpu: { requestAdapter: async () => ({}) } }
    expect((await detectCapabilities(nav)).webgpu).toEqual({
      vendor: '',
      architecture: '',
      device: '',
      description: '',
      isFallbackAdapter: false,
    })
  })

  it.each<[string, NavigatorLike['gpu']]>([
    ['no navigator.gpu', undefined],
    ['no adapter', { requestAdapter: async () => null }],
    ['a throwing requestAdapter', { requestAdapter: () => Promise.reject(new Error('blocklisted')) }],
  ])('reports no WebGPU with %s', async (_, gpu) => {
    expect((await detectCapabilities({ hardwareConcurrency: 4, gpu })).webgpu).toBeNull()
  })

  it('falls back to one core and unknown memory when the browser does not say', async () => {
    expect(await detectCapabilities({})).toEqual({ webgpu: null, cores: 1, memoryGb: null })
    expect(await detectCapabilities({ hardwareConcurrency: 0, deviceMemory: 0 })).toEqual({
      webgpu: null,
      cores: 1,
      memoryGb: null,
    })
  })
})
