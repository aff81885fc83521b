// The Markets view: Delphi-style information markets on the stack's chain. #/markets lists them,
// #/markets/<address> shows one with its trade panel, #/markets/portfolio the wallet's positions and
// #/markets/create the create-market form. The feed follows the chain while the view is open.
import { useEffect } from 'react'
import { useWalletStore } from '../../state/wallet-store.ts'
import { CreateMarketForm } from './CreateMarketForm.tsx'
import { MarketList } from './MarketList.tsx'
import { MarketPage } from './MarketPage.tsx'
import { MarketsNav } from './MarketsNav.tsx'
import { PortfolioView } from './PortfolioView.tsx'
import { startMarketsFeed } from './markets-feed.ts'
import { useMarketRoute, useMarketsPage } from './market-route.ts'
import './markets.css'

export function MarketsView() {
  const deployment = useWalletStore((s) => s.deployment)
  const networks = useWalletStore((s) => s.networks)
  const market = useMarketRoute()
  const page = useMarketsPage()
  useEffect(() => startMarketsFeed(deployment), [deployment, networks])
  // keyed by address: another market starts with a fresh trade panel, position panel and statuses
  return (
    <div className="view markets-view">
      <MarketsNav page={market ? null : page} />
      {market ? (
        <MarketPage key={market} address={market} />
      ) : page === 'portfolio' ? (
        <PortfolioView />
      ) : page === 'create' ? (
        <CreateMarketForm />
      ) : (
        <MarketList />
      )}
    </div>
  )
}
