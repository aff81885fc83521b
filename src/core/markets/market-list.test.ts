import { describe, expect, it } from 'vitest'
import { selectMarkets, matchesSearch } from './market-list.ts'

const m = (
  address: string,
  question: string,
  o: {
    status?: number
    pool?: bigint
    deadline?: bigint
    created?: bigint | null
    kind?: 'dpm' | 'lmsr'
    index?: number
  },
) => ({
  address: address as `0x${string}`,
  kind: o.kind ?? ('dpm' as const),
  index: o.index ?? 0,
  metadata: { question, outcomes: ['Yes', 'No'], category: 'sports' as const, resolutionCriteria: '' },
  status: o.status ?? 0,
  pool: o.pool ?? 0n,
  tradingDeadline: o.deadline ?? 0n,
  createdBlock: o.created === undefined ? 1n : o.created,
})

const markets = [
  m('0xa', 'Will it rain in Paris?', { pool: 50n, deadline: 100n, created: 5n, index: 0 }),
  m('0xb', 'Who wins the final?', { pool: 500n, deadline: 300n, created: 7n, status: 2, index: 1 }),
  m('0xc', 'Will BTC close above 100k?', { pool: 200n, deadline: 200n, created: 6n, kind: 'lmsr', index: 0 }),
]
const ids = (xs: { address: string }[]) => xs.map((x) => x.address)

describe('selectMarkets', () => {
  it('sorts by liquidity, newest, or soonest deadline', () => {
    expect(ids(selectMarkets(markets, { status: 'all', search: '', sort: 'liquidity' }))).toEqual([
      '0xb',
      '0xc',
      '0xa',
    ])
    expect(ids(selectMarkets(markets, { status: 'all', search: '', sort: 'created' }))).toEqual([
      '0xb',
      '0xc',
      '0xa',
    ])
    expect(ids(selectMarkets(markets, { status: 'all', search: '', sort: 'deadline' }))).toEqual([
      '0xa',
      '0xc',
      '0xb',
    ])
  })

  it('orders unknown creation blocks last among the newest', () => {
    const list = [...markets, m('0xd', 'Unknown age', { created: null, index: 3 })]
    expect(ids(selectMarkets(list, { status: 'all', search: '', sort: 'created' })).at(-1)).toBe('0xd')
  })

  it('filters by status and by every word of the search, without changing the input', () => {
    expect(ids(selectMarkets(markets, { status: 0, search: '', sort: 'liquidity' }))).toEqual(['0xc', '0xa'])
    expect(ids(selectMarkets(markets, { status: 'all', search: 'will CLOSE', sort: 'liquidity' }))).toEqual([
      '0xc',
    ])
    expect(ids(markets)).toEqual(['0xa', '0xb', '0xc'])
  })

  it('searches outcomes, category and kind too', () => {
    expect(matchesSearch(markets[0]!, 'yes')).toBe(true)
    expect(matchesSearch(markets[0]!, 'sports')).toBe(true)
    expect(matchesSearch(markets[2]!, 'lmsr')).toBe(true)
    expect(matchesSearch(markets[0]!, 'lmsr')).toBe(false)
    expect(matchesSearch(markets[0]!, '   ')).toBe(true)
  })
})
