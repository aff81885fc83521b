// The Markets view: Delphi-style information markets on the stack's chain. #/markets lists them,
// #/markets/<address> shows one with its trade panel. The feed follows the chain while the view is open.
import { useEffect } from 'react'
import { useWalletStore } from '../../state/wallet-store.ts'
import { MarketList } from './MarketList.tsx'
import { MarketPage } from './MarketPage.tsx'
import { startMarketsFeed } from './markets-feed.ts'
import { useMarketRoute } from './market-route.ts'
import './markets.css'

export function MarketsView() {
  const deployment = useWalletStore((s) => s.deployment)
  const networks = useWalletStore((s) => s.networks)
  const market = useMarketRoute()
  useEffect(() => startMarketsFeed(deployment), [deployment, networks])
  // keyed by address: another market starts with a fresh trade panel, position panel and statuses
  return (
    <div className="view markets-view">
      {market ? <MarketPage key={market} address={market} /> : <MarketList />}
    </div>
  )
}
