import { describe, expect, it } from 'vitest'
import { chooseBackend, hasRealGpu, WEBGPU_MIN_MODEL_BYTES, type GpuProbe } from './choose-backend.ts'

const gpuWith = (adapter: Awaited<ReturnType<GpuProbe['requestAdapter']>>): GpuProbe => ({
  requestAdapter: () => Promise.resolve(adapter),
})

describe('backend choice', () => {
  it('sees a real GPU only in a hardware adapter', async () => {
    expect(await hasRealGpu(undefined)).toBe(false)
    expect(await hasRealGpu(gpuWith(null))).toBe(false)
    expect(await hasRealGpu({ requestAdapter: () => Promise.reject(new Error('blocked')) })).toBe(false)
    expect(await hasRealGpu(gpuWith({ isFallbackAdapter: true }))).toBe(false)
    expect(await hasRealGpu(gpuWith({ info: { isFallbackAdapter: true } }))).toBe(false)
    expect(await hasRealGpu(gpuWith({ info: { vendor: 'google', architecture: 'swiftshader' } }))).toBe(false)
    expect(await hasRealGpu(gpuWith({ info: { vendor: 'nvidia', architecture: 'hopper' } }))).toBe(true)
  })

  it('runs small models on wasm even with a GPU', () => {
    expect(chooseBackend(WEBGPU_MIN_MODEL_BYTES, true)).toBe('webgpu')
    expect(chooseBackend(WEBGPU_MIN_MODEL_BYTES - 1, true)).toBe('wasm')
    expect(chooseBackend(10 * WEBGPU_MIN_MODEL_BYTES, false)).toBe('wasm')
  })
})
