import { describe, expect, it } from 'vitest'
import type { TradeEvent } from '../chain/markets/market-events.ts'
import { appendTradeHistory } from './trade-history-store.ts'

const trade = (market: string, blockNumber: bigint, logIndex: number): TradeEvent => ({
  market: market as `0x${string}`,
  side: 'buy',
  trader: '0x0000000000000000000000000000000000000001',
  outcome: 0,
  shares: 1n,
  tokens: 1n,
  blockNumber,
  logIndex,
  hash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
})

describe('appendTradeHistory', () => {
  it('keeps every trade by market (case-insensitive), in order, without a cap, each once', () => {
    const a = '0xAbC0000000000000000000000000000000000000'
    const b = '0x0000000000000000000000000000000000000abc'
    const first = appendTradeHistory({}, [trade(a, 1n, 0), trade(b, 1n, 1), trade(a.toLowerCase(), 2n, 0)])
    const many = Array.from({ length: 120 }, (_, i) => trade(a, 3n + BigInt(i), 0))
    const next = appendTradeHistory(first, [trade(a, 2n, 0), ...many])
    expect(next[a.toLowerCase()]!.map((t) => t.blockNumber)).toEqual([
      1n,
      2n,
      ...many.map((t) => t.blockNumber),
    ])
    expect(next[b]).toHaveLength(1)
    // the earlier state is not changed
    expect(first[a.toLowerCase()]).toHaveLength(2)
  })
})
