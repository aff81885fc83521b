import { describe, expect, it } from 'vitest'
import { MAX_ID_LENGTH, PROTOCOL_VERSION, encodeEnvelope } from './envelope.ts'
import {
  MAX_APP_VERSION_LENGTH,
  MAX_GPU_DESCRIPTION_LENGTH,
  MAX_GPU_FIELD_LENGTH,
  MAX_NAME_LENGTH,
  makePresenceBody,
  validatePresenceBody,
  type Capabilities,
  type PresenceBody,
} from './presence.ts'
import { MAX_MESSAGE_BYTES } from './topics.ts'

const gpu = {
  vendor: 'nvidia',
  architecture: 'ampere',
  device: '',
  description: 'NVIDIA GeForce RTX 3080',
  isFallbackAdapter: false,
}
const valid: PresenceBody = {
  name: 'dense slimy aardvark',
  appVersion: '0.1.0',
  capabilities: { webgpu: gpu, cores: 8, memoryGb: 8 },
  leaving: false,
}
const withCapabilities = (c: Record<string, unknown>): unknown => ({
  ...valid,
  capabilities: { ...valid.capabilities, ...c },
})
const withGpu = (g: Record<string, unknown>): unknown => withCapabilities({ webgpu: { ...gpu, ...g } })

describe('validatePresenceBody', () => {
  it('accepts a valid body and returns a copy of it', () => {
    const result = validatePresenceBody(structuredClone(valid))
    expect(result).toEqual(valid)
    expect(
      validatePresenceBody({ ...valid, capabilities: { webgpu: null, cores: 1, memoryGb: null } }),
    ).toEqual({
      ...valid,
      capabilities: { webgpu: null, cores: 1, memoryGb: null },
    })
  })

  it('accepts the bounds themselves', () => {
    const atLimits = {
      ...valid,
      name: 'n'.repeat(MAX_NAME_LENGTH),
      appVersion: 'v'.repeat(MAX_APP_VERSION_LENGTH),
      capabilities: {
        webgpu: {
          ...gpu,
          vendor: 'x'.repeat(MAX_GPU_FIELD_LENGTH),
          description: 'd'.repeat(MAX_GPU_DESCRIPTION_LENGTH),
        },
        cores: 1024,
        memoryGb: 0.25,
      },
    }
    expect(validatePresenceBody(atLimits)).toEqual(atLimits)
  })

  const noLeaving: Partial<PresenceBody> = { ...valid }
  delete noLeaving.leaving
  it.each([
    ['null', null],
    ['an array', [valid]],
    ['an unknown field', { ...valid, extra: true }],
    ['a missing field', noLeaving],
    ['a __proto__ field', JSON.parse(JSON.stringify(valid).replace('{', '{"__proto__":{},'))],
    ['an empty name', { ...valid, name: '' }],
    ['a long name', { ...valid, name: 'n'.repeat(MAX_NAME_LENGTH + 1) }],
    ['a numeric name', { ...valid, name: 5 }],
    ['an empty app version', { ...valid, appVersion: '' }],
    ['a long app version', { ...valid, appVersion: 'v'.repeat(MAX_APP_VERSION_LENGTH + 1) }],
    ['string leaving', { ...valid, leaving: 'yes' }],
    ['capabilities as a list', { ...valid, capabilities: [] }],
    ['an unknown capability', withCapabilities({ ram: 4 })],
    ['0 cores', withCapabilities({ cores: 0 })],
    ['1025 cores', withCapabilities({ cores: 1025 })],
    ['fractional cores', withCapabilities({ cores: 2.5 })],
    ['cores as a string', withCapabilities({ cores: '8' })],
    ['0 GiB memory', withCapabilities({ memoryGb: 0 })],
    ['negative memory', withCapabilities({ memoryGb: -4 })],
    ['memory above the cap', withCapabilities({ memoryGb: 2048 })],
    ['webgpu as a string', withCapabilities({ webgpu: 'yes' })],
    ['an unknown webgpu field', withGpu({ driver: '1.2' })],
    ['a long vendor', withGpu({ vendor: 'x'.repeat(MAX_GPU_FIELD_LENGTH + 1) })],
    ['a long architecture', withGpu({ architecture: 'x'.repeat(MAX_GPU_FIELD_LENGTH + 1) })],
    ['a numeric device', withGpu({ device: 1 })],
    ['a long description', withGpu({ description: 'd'.repeat(MAX_GPU_DESCRIPTION_LENGTH + 1) })],
    ['a non-boolean fallback flag', withGpu({ isFallbackAdapter: 0 })],
  ])('refuses %s with a message', (_, body) => {
    const result = validatePresenceBody(body)
    expect(typeof result).toBe('string')
    expect((result as string).length).toBeGreaterThan(0)
  })

  it('lets the largest valid presence fit the presence size cap', () => {
    const body: PresenceBody = {
      name: 'n'.repeat(MAX_NAME_LENGTH),
      appVersion: 'v'.repeat(MAX_APP_VERSION_LENGTH),
      capabilities: {
        webgpu: {
          vendor: 'x'.repeat(MAX_GPU_FIELD_LENGTH),
          architecture: 'x'.repeat(MAX_GPU_FIELD_LENGTH),
          device: 'x'.repeat(MAX_GPU_FIELD_LENGTH),
          description: 'd'.repeat(MAX_GPU_DESCRIPTION_LENGTH),
          isFallbackAdapter: false,
        },
        cores: 1024,
        memoryGb: 0.125,
      },
      leaving: false,
    }
    const id = 'p'.repeat(MAX_ID_LENGTH)
    const bytes = encodeEnvelope({
      v: PROTOCOL_VERSION,
      swarmId: id,
      round: Number.MAX_SAFE_INTEGER,
      from: id,
      ts: Number.MAX_SAFE_INTEGER,
      kind: 'presence',
      body,
    })
    expect(validatePresenceBody(body)).toEqual(body)
    expect(bytes.byteLength).toBeLessThanOrEqual(MAX_MESSAGE_BYTES.presence)
  })
})

describe('makePresenceBody', () => {
  it('builds a body that validates, leaving false unless asked', () => {
    const body = makePresenceBody({ name: valid.name, appVersion: '0.1.0', capabilities: valid.capabilities })
    expect(body).toEqual(valid)
    expect(validatePresenceBody(body)).toEqual(body)
    expect(makePresenceBody({ ...valid, leaving: true }).leaving).toBe(true)
  })

  it.each<[string, Capabilities]>([
    [
      'long GPU strings',
      {
        webgpu: { ...gpu, vendor: 'v'.repeat(500), description: 'd'.repeat(5000), device: 'é'.repeat(100) },
        cores: 8,
        memoryGb: 8,
      },
    ],
    ['zero cores', { webgpu: null, cores: 0, memoryGb: null }],
    ['NaN cores and memory', { webgpu: null, cores: Number.NaN, memoryGb: Number.NaN }],
    ['huge cores and memory', { webgpu: null, cores: 100_000, memoryGb: 1e9 }],
    ['fractional cores, negative memory', { webgpu: null, cores: 3.7, memoryGb: -1 }],
  ])('fits %s from the browser to the schema', (_, capabilities) => {
    const body = makePresenceBody({ name: valid.name, appVersion: '0.1.0', capabilities })
    expect(validatePresenceBody(body)).toEqual(body)
  })

  it('keeps sane capabilities as they are', () => {
    const capabilities: Capabilities = { webgpu: null, cores: 12, memoryGb: 0.5 }
    expect(makePresenceBody({ name: 'a b c', appVersion: '1', capabilities }).capabilities).toEqual(
      capabilities,
    )
  })

  it('throws on a name or app version of ours that peers would refuse', () => {
    const capabilities = valid.capabilities
    expect(() => makePresenceBody({ name: '', appVersion: '1', capabilities })).toThrow(RangeError)
    expect(() => makePresenceBody({ name: 'n'.repeat(65), appVersion: '1', capabilities })).toThrow(
      RangeError,
    )
    expect(() => makePresenceBody({ name: 'a', appVersion: '', capabilities })).toThrow(RangeError)
  })
})
