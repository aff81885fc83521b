// The Markets view's tabs: the list, the wallet's portfolio, and (on the local chain) the create form.
import { useWalletStore } from '../../state/wallet-store.ts'
import { isLocalDeployment } from '../deployment-client.ts'
import { CREATE_MARKET_HREF, MARKETS_HREF, PORTFOLIO_HREF, type MarketsPage } from './market-route.ts'

export function MarketsNav({ page }: { page: MarketsPage | null }) {
  const deployment = useWalletStore((s) => s.deployment)
  const tabs: [MarketsPage, string, string][] = [
    ['list', 'Markets', MARKETS_HREF],
    ['portfolio', 'Portfolio', PORTFOLIO_HREF],
  ]
  if (deployment?.markets && isLocalDeployment(deployment))
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
    </nav>
  )
}
