// Routes inside the Markets view: #/markets (the list), #/markets/<market address> (one market),
// #/markets/portfolio (the wallet's positions) and #/markets/create (the create-market form).
import { getAddress, isAddress, type Address } from 'viem'

/** The market address in `hash` ("#/markets/0x…"), or null for the list. */
export function parseMarketRoute(hash: string): Address | null {
  const [view, id] = hash.replace(/^#\/?/, '').split(/[/?]/)
  return view === 'markets' && id && isAddress(id, { strict: false }) ? getAddress(id) : null
}

export const marketHref = (address: Address): string => `#/markets/${address}`
export const MARKETS_HREF = '#/markets'
export const PORTFOLIO_HREF = '#/markets/portfolio'
export const CREATE_MARKET_HREF = '#/markets/create'

/** The Markets view's pages other than a market's own. */
export type MarketsPage = 'list' | 'portfolio' | 'create'

/** Which page `hash` shows when it is not a market's (parseMarketRoute null). */
export function parseMarketsPage(hash: string): MarketsPage {
  const [view, page] = hash.replace(/^#\/?/, '').split(/[/?]/)
  return view === 'markets' && (page === 'portfolio' || page === 'create') ? page : 'list'
}
