import { describe, expect, it } from 'vitest'
import { FAUCET_WINDOW_MS, FaucetQuota } from './faucet-quota.ts'

const A = '0x00000000000000000000000000000000000000aA'
const B = '0x00000000000000000000000000000000000000bB'
const T = 1_700_000_000_000

describe('FaucetQuota', () => {
  it('gives an address its grants per hour, then says when it may have another', () => {
    const quota = new FaucetQuota(1, 100)
    expect(quota.refusal(A, T)).toBeNull()
    quota.record(A, T)
    // the same address in any case of letters
    expect(quota.refusal(A.toLowerCase(), T + 1_000)).toEqual({
      reason: 'address',
      retryAt: T + FAUCET_WINDOW_MS,
    })
    expect(quota.refusal(B, T + 1_000)).toBeNull()
    expect(quota.refusal(A, T + FAUCET_WINDOW_MS)).toBeNull()
  })

  it('caps the grants of all addresses together, and forgets grants older than an hour', () => {
    const quota = new FaucetQuota(1, 3)
    for (let i = 0; i < 3; i++) quota.record(`0x${i}`, T + i)
    expect(quota.refusal(B, T + 10)).toEqual({ reason: 'everyone', retryAt: T + FAUCET_WINDOW_MS })
    expect(quota.refusal(B, T + FAUCET_WINDOW_MS)).toBeNull()
    expect(quota.size).toBe(2)
    expect(quota.refusal(B, T + FAUCET_WINDOW_MS + 10)).toBeNull()
    expect(quota.size).toBe(0)
  })
})
