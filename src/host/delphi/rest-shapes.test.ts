// REST answers are read only when they have the documented shape; a wrong field is named.
import { describe, expect, it } from 'vitest'
import { DelphiResponseError } from './errors.ts'
import { parseDelphiMarket, parseDelphiPosition, parseList } from './rest-shapes.ts'

const MARKET = {
  id: '0x5c40c54a179db01239275eeca74db94a7f0ad07e',
  appMarketId: 'b1f6e0c2-0000-4000-8000-000000000001',
  status: 'settled',
  category: 'crypto',
  metadata: { question: 'Will it?', outcomes: ['Yes', 'No'], model: { prompt_context: 'Per the oracle.' } },
  createdAt: '2026-11-01T00:00:00.000Z',
  resolvesAt: null,
  settlesAt: '2026-12-01T00:00:00.000Z',
  settledAt: null,
  winningOutcomeIdx: '1',
  tradingFee: '20000000000000000',
  proof: null,
  error: null,
  verifiable: true,
}

describe('Delphi REST shapes', () => {
  it('reads a market: checksummed id, integers as bigints, the prompt context', () => {
    const m = parseDelphiMarket(MARKET)
    expect(m.id).toBe('0x5c40c54A179dB01239275eECA74dB94a7F0aD07E')
    expect(m).toMatchObject({
      status: 'settled',
      winningOutcomeIdx: 1n,
      tradingFee: 2n * 10n ** 16n,
      verifiable: true,
    })
    expect(m.metadata).toEqual({
      question: 'Will it?',
      outcomes: ['Yes', 'No'],
      promptContext: 'Per the oracle.',
    })
    expect(parseDelphiMarket({ ...MARKET, metadata: null }).metadata).toBeNull()
  })

  it('names the field that is wrong', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...MARKET, id: 'market-1' }, /markets\[0\]\.id should be an address/],
      [{ ...MARKET, status: 'closed' }, /markets\[0\]\.status should be one of open, awaiting_settlement/],
      [{ ...MARKET, tradingFee: '2%' }, /markets\[0\]\.tradingFee should be a whole number/],
      [
        { ...MARKET, metadata: { question: 'Q', outcomes: ['only'] } },
        /markets\[0\]\.metadata\.outcomes should be at least two labels/,
      ],
    ]
    for (const [market, message] of cases) {
      expect(() => parseList({ markets: [market] }, 'markets', parseDelphiMarket)).toThrow(
        DelphiResponseError,
      )
      expect(() => parseList({ markets: [market] }, 'markets', parseDelphiMarket)).toThrow(message)
    }
    expect(() => parseList({ data: [] }, 'markets', parseDelphiMarket)).toThrow(/markets should be a list/)
    expect(parseList({ markets: null }, 'markets', parseDelphiMarket)).toEqual([])
  })

  it('reads a position, zero-share rows included', () => {
    const p = parseDelphiPosition({
      id: 'x',
      marketProxy: MARKET.id,
      wallet: '0x000000000000000000000000000000000000bEEF',
      outcomeIdx: '1',
      shares: '0',
      redeemedOrLiquidated: false,
      tokensRedeemed: '0',
      marketStatus: 'open',
    })
    expect(p).toMatchObject({ outcomeIdx: 1, shares: 0n, marketStatus: 'open' })
  })
})
