// Routes inside the Markets view: #/markets (the list) and #/markets/<market address> (one market).
import { useSyncExternalStore } from 'react'
import { getAddress, isAddress, type Address } from 'viem'

/** The market address in `hash` ("#/markets/0x…"), or null for the list. */
export function parseMarketRoute(hash: string): Address | null {
  const [view, id] = hash.replace(/^#\/?/, '').split(/[/?]/)
  return view === 'markets' && id && isAddress(id, { strict: false }) ? getAddress(id) : null
}

export const marketHref = (address: Address): string => `#/markets/${address}`
export const MARKETS_HREF = '#/markets'

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener)
  return () => window.removeEventListener('hashchange', listener)
}

export function useMarketRoute(): Address | null {
  return useSyncExternalStore(
    subscribe,
    () => parseMarketRoute(window.location.hash),
    () => null,
  )
}
