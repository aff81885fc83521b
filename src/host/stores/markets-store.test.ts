import { describe, expect, it } from 'vitest'
import type { TradeEvent } from '../chain/markets/market-events.ts'
import { TRADES_KEPT, mergeTrades } from './markets-store.ts'

const trade = (market: string, logIndex: number): TradeEvent => ({
  market: market as `0x${string}`,
  side: 'buy',
  trader: '0x0000000000000000000000000000000000000001',
  outcome: 0,
  shares: 1n,
  tokens: 1n,
  blockNumber: BigInt(logIndex),
  logIndex,
  hash: `0x${logIndex.toString(16).padStart(64, '0')}`,
})

describe('mergeTrades', () => {
  it('groups by market (case-insensitive), keeps order, drops repeats', () => {
    const a = '0xAbC0000000000000000000000000000000000000'
    const merged = mergeTrades({}, [trade(a, 1), trade(a.toLowerCase(), 2), trade(a, 1)])
    expect(merged[a.toLowerCase()]!.map((t) => t.logIndex)).toEqual([1, 2])
  })

  it('keeps only the newest trades', () => {
    const a = '0x0000000000000000000000000000000000000abc'
    const many = Array.from({ length: TRADES_KEPT + 5 }, (_, i) => trade(a, i))
    const merged = mergeTrades({}, many)
    expect(merged[a]).toHaveLength(TRADES_KEPT)
    expect(merged[a]![0]!.logIndex).toBe(5)
  })
})
