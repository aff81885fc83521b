// The subgraph's history answer merged in block order and checked row by row, and the freshness rule.
import { describe, expect, it } from 'vitest'
import { historyQuery, parseHistoryAnswer } from './subgraph-client.ts'
import { SUBGRAPH_STALE_BLOCKS, subgraphFreshness } from './subgraph-freshness.ts'

const HASH = `0x${'ab'.repeat(32)}`
const at = (block: number) => ({
  id: `${HASH}-${block}`,
  block_number: String(block),
  timestamp_: '1764460800',
  transactionHash_: HASH,
})
const TRADER = '0x000000000000000000000000000000000000beef'

function answer(overrides: Record<string, unknown> = {}) {
  return {
    data: {
      _meta: { block: { number: 120 }, hasIndexingErrors: false },
      gatewayBuys: [
        { ...at(10), buyer: TRADER, outcomeIdx: '0', tokensIn: '8200000', sharesOut: '1000000000000000000' },
      ],
      gatewaySells: [
        { ...at(12), seller: TRADER, outcomeIdx: '0', sharesIn: '500000000000000000', tokensOut: '4000000' },
      ],
      gatewayRedemptions: [
        { ...at(30), redeemer: TRADER, sharesIn: '500000000000000000', tokensOut: '9000000' },
      ],
      gatewayLiquidations: [],
      gatewayMarketSettleds: [{ ...at(20), winningOutcomeIdx: '0' }],
      gatewayMarketFaileds: [],
      ...overrides,
    },
  }
}

describe('subgraph history', () => {
  it('asks for the market in lower case and merges every entity in block order', () => {
    expect(historyQuery('0x000000000000000000000000000000000000bEEF')).toContain(
      'marketProxy: "0x000000000000000000000000000000000000beef"',
    )
    const h = parseHistoryAnswer(answer())
    expect(h.indexedBlock).toBe(120n)
    expect(h.entries.map((e) => e.kind)).toEqual(['buy', 'sell', 'settled', 'redeem'])
    expect(h.entries[0]).toMatchObject({
      trader: '0x000000000000000000000000000000000000bEEF',
      shares: 10n ** 18n,
      tokens: 8_200_000n,
    })
  })

  it('refuses a malformed row, a missing list and a GraphQL error by name', () => {
    expect(() => parseHistoryAnswer(answer({ gatewaySells: [{ ...at(3), seller: 'nobody' }] }))).toThrow(
      /gatewaySells\[0\]\.seller should be an address/,
    )
    expect(() => parseHistoryAnswer(answer({ gatewayLiquidations: undefined }))).toThrow(
      /gatewayLiquidations should be a list/,
    )
    expect(() =>
      parseHistoryAnswer({ errors: [{ message: 'Type `Query` has no field `gatewayMarketSettleds`' }] }),
    ).toThrow(/refused the history query: Type `Query` has no field/)
  })
})

describe('subgraphFreshness', () => {
  it('is fresh up to the threshold, stale past it or with indexing errors', () => {
    expect(subgraphFreshness(1_000n, 1_000n + SUBGRAPH_STALE_BLOCKS, false)).toMatchObject({
      stale: false,
      warning: null,
    })
    const behind = subgraphFreshness(1_000n, 1_101n + SUBGRAPH_STALE_BLOCKS - 100n, false)
    expect(behind).toMatchObject({ stale: true, lagBlocks: 101n })
    expect(behind.warning).toMatch(/101 blocks behind the chain/)
    expect(subgraphFreshness(1_005n, 1_000n, false).lagBlocks).toBe(0n)
    expect(subgraphFreshness(1_000n, 1_000n, true).warning).toMatch(/indexing errors/)
  })
})
