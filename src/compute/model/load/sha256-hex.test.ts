import { afterEach, describe, expect, it, vi } from 'vitest'
import { sha256Hex } from './sha256-hex.ts'

describe('sha256Hex', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('gives the FIPS 180 test vector with WebCrypto and without it', async () => {
    const abc = new TextEncoder().encode('abc')
    const expected = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    expect(await sha256Hex(abc)).toBe(expected)
    vi.stubGlobal('crypto', {})
    expect(await sha256Hex(abc)).toBe(expected)
  })
})
