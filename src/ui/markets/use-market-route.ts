// The market route as React state: the views re-render when the hash changes (the parsing is
// src/host/markets/market-route.ts).
import { useSyncExternalStore } from 'react'
import type { Address } from 'viem'
import { parseMarketRoute, parseMarketsPage, type MarketsPage } from '../../host/markets/market-route.ts'

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

export function useMarketsPage(): MarketsPage {
  return useSyncExternalStore(
    subscribe,
    () => parseMarketsPage(window.location.hash),
    () => 'list',
  )
}
