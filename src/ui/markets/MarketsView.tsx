// The Markets view: Delphi-style information markets on the stack's chain or one of Delphi's networks
// (picked in the view, market-source.ts). #/markets lists them,
// #/markets/<address> shows one with its trade panel, #/markets/portfolio the wallet's positions and
// #/markets/create the create-market form. The feed follows the chain while the view is open.
import { useEffect } from 'react'
import { Card } from '../common/Card.tsx'
import { CreateMarketForm } from './CreateMarketForm.tsx'
import { MarketList } from './MarketList.tsx'
import { MarketPage } from './MarketPage.tsx'
import { MarketsNav } from './MarketsNav.tsx'
import { PortfolioView } from './PortfolioView.tsx'
import { startMarketSource } from '../../host/markets/market-source.ts'
import { useMarketRoute, useMarketsPage } from './use-market-route.ts'
import './markets.css'
import { useDelphiSettings, useWalletSettings, useWalletStore } from '../stores.ts'

export function MarketsView() {
  const deployment = useWalletStore((s) => s.deployment)
  const networks = useWalletStore((s) => s.networks)
  const rpcOverrides = useWalletSettings((s) => s.rpcOverrides)
  const settings = useDelphiSettings()
  const market = useMarketRoute()
  const page = useMarketsPage()
  useEffect(
    () => startMarketSource({ source: settings.source, deployment, settings, networks, rpcOverrides }),
    [deployment, networks, rpcOverrides, settings],
  )
  // keyed by address: another market starts with a fresh trade panel, position panel and statuses
  return (
    <div className="view markets-view">
      <MarketsNav page={market ? null : page} />
      {market ? (
        <MarketPage key={market} address={market} />
      ) : page === 'portfolio' ? (
        <PortfolioView />
      ) : page === 'create' ? (
        settings.source === 'local' ? (
          <CreateMarketForm />
        ) : (
          <Card title="Create a market" testId="create-market-local-only">
            <p className="hint">Markets are created on the local chain only: pick “Local chain” above.</p>
          </Card>
        )
      ) : (
        <MarketList />
      )}
    </div>
  )
}
