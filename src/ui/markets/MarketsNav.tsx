// The Markets view's tabs: the list, the wallet's portfolio, and (on the local chain) the create form;
// then the network picker.
import { MarketSourcePicker } from './MarketSourcePicker.tsx'
import { isLocalDeployment } from '../../host/chain/deployment-client.ts'
import {
  CREATE_MARKET_HREF,
  MARKETS_HREF,
  PORTFOLIO_HREF,
  type MarketsPage,
} from '../../host/markets/market-route.ts'
import { useDelphiSettings, useWalletStore } from '../stores.ts'

export function MarketsNav({ page }: { page: MarketsPage | null }) {
  const deployment = useWalletStore((s) => s.deployment)
  const local = useDelphiSettings((s) => s.source === 'local')
  const tabs: [MarketsPage, string, string][] = [
    ['list', 'Markets', MARKETS_HREF],
    ['portfolio', 'Portfolio', PORTFOLIO_HREF],
  ]
  if (local && deployment?.markets && isLocalDeployment(deployment))
    tabs.push(['create', 'Create a market', CREATE_MARKET_HREF])
  return (
    <nav className="mk-nav" aria-label="Markets">
      {tabs.map(([id, label, href]) => (
        <a
          key={id}
          href={href}
          className={`btn btn-small ${page === id ? 'active' : ''}`}
          aria-current={page === id ? 'page' : undefined}
          data-testid={`markets-nav-${id}`}
        >
          {label}
        </a>
      ))}
      <MarketSourcePicker />
    </nav>
  )
}
