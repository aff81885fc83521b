import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startBlockPoller } from './block-poller.ts'

describe('startBlockPoller', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('reads on the first poll, on new blocks, after a failure heals and when poked', async () => {
    let block = 1n
    let down = false
    const reads: bigint[] = []
    const errors: unknown[] = []
    const poller = startBlockPoller({
      blockNumber: async () => {
        if (down) throw new Error('rpc down')
        return block
      },
      intervalMs: () => 500,
      onBlock: async (n) => void reads.push(n),
      onError: (e) => void errors.push(e),
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(reads).toEqual([1n])
    await vi.advanceTimersByTimeAsync(1_000) // same block: no read
    expect(reads).toEqual([1n])
    block = 2n
    await vi.advanceTimersByTimeAsync(500)
    expect(reads).toEqual([1n, 2n])
    down = true
    await vi.advanceTimersByTimeAsync(500)
    expect(errors).toHaveLength(1)
    down = false
    await vi.advanceTimersByTimeAsync(500) // healed: reads again even though the block is the same
    expect(reads).toEqual([1n, 2n, 2n])
    poller.poke()
    await vi.advanceTimersByTimeAsync(0)
    expect(reads).toEqual([1n, 2n, 2n, 2n])
    poller.stop()
    block = 3n
    await vi.advanceTimersByTimeAsync(5_000)
    expect(reads).toHaveLength(4)
  })

  it('counts a failed read as a failed poll and retries it', async () => {
    let fail = true
    const reads: bigint[] = []
    const errors: unknown[] = []
    const poller = startBlockPoller({
      blockNumber: async () => 7n,
      intervalMs: () => 100,
      onBlock: async (n) => {
        if (fail) throw new Error('read failed')
        reads.push(n)
      },
      onError: (e) => void errors.push(e),
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(errors).toHaveLength(1)
    fail = false
    await vi.advanceTimersByTimeAsync(100)
    expect(reads).toEqual([7n])
    poller.stop()
  })
})
