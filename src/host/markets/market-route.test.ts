import { describe, expect, it } from 'vitest'
import {
  CREATE_MARKET_HREF,
  PORTFOLIO_HREF,
  marketHref,
  parseMarketRoute,
  parseMarketsPage,
} from './market-route.ts'

const A = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

describe('parseMarketRoute', () => {
  it('finds the market address after #/markets/', () => {
    expect(parseMarketRoute(`#/markets/${A.toLowerCase()}`)).toBe(A)
    expect(parseMarketRoute(marketHref(A))).toBe(A)
  })
  it('is null for the list, another view or a bad address', () => {
    expect(parseMarketRoute('#/markets')).toBeNull()
    expect(parseMarketRoute(`#/wallet/${A}`)).toBeNull()
    expect(parseMarketRoute('#/markets/0x123')).toBeNull()
  })
})

describe('parseMarketsPage', () => {
  it('finds the portfolio and the create form; anything else is the list', () => {
    expect(parseMarketsPage(PORTFOLIO_HREF)).toBe('portfolio')
    expect(parseMarketsPage(CREATE_MARKET_HREF)).toBe('create')
    expect(parseMarketsPage('#/markets')).toBe('list')
    expect(parseMarketsPage(marketHref(A))).toBe('list')
    expect(parseMarketsPage('#/wallet/portfolio')).toBe('list')
    expect(parseMarketRoute(PORTFOLIO_HREF)).toBeNull()
  })
})
