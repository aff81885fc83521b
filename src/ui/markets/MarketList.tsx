// The markets list: status filter, search, sort (liquidity, newest, trading deadline); each market as a
// card with its outcomes' implied probabilities and prices, its pool, its trading deadline and, on
// Delphi, its verifiable badge.
import { useMemo } from 'react'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import { MARKET_SORTS, selectMarkets, type MarketSort } from '../../core/markets/market-list.ts'
import { MARKET_KINDS } from '../../core/markets/market-kinds.ts'
import {
  formatDeadline,
  formatPrice,
  formatProbability,
  formatUntil,
} from '../../core/markets/market-format.ts'
import { marketTitle, outcomeLabel, type MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { STATUS_FILTERS, statusLabel } from '../../core/markets/market-status.ts'
import { marketsStore } from '../../host/stores/markets-store.ts'
import { Card } from '../common/Card.tsx'
import { CountTitle } from '../common/CountTitle.tsx'
import { useNow } from '../use-now.ts'
import { VerifiableBadge } from './MarketSettlement.tsx'
import { MarketsStatus } from './MarketsStatus.tsx'
import { ProbabilityBar } from './ProbabilityBar.tsx'
import { marketHref } from '../../host/markets/market-route.ts'
import { useMarketToken } from './use-market-token.ts'
import { useMarketsStore } from '../stores.ts'

export function MarketList() {
  const markets = useMarketsStore((s) => s.markets)
  const query = useMarketsStore((s) => s.query)
  const shown = useMemo(() => selectMarkets(markets, query), [markets, query])
  const setQuery = (q: Partial<typeof query>) =>
    marketsStore.setState((s) => ({ query: { ...s.query, ...q } }))

  return (
    <Card
      title={<CountTitle label="Markets" count={markets.length} />}
      testId="markets-list"
      aside={<MarketsStatus />}
    >
      <div className="mk-filters">
        <input
          className="input mk-search"
          type="search"
          placeholder="Search questions, outcomes, categories…"
          value={query.search}
          data-testid="markets-search"
          aria-label="Search markets"
          onChange={(e) => setQuery({ search: e.target.value })}
        />
        <div className="mk-segments" role="group" aria-label="Status">
          {STATUS_FILTERS.map((f) => (
            <button
              key={String(f.value)}
              type="button"
              className={`btn btn-small ${query.status === f.value ? 'active' : ''}`}
              aria-pressed={query.status === f.value}
              data-testid={`markets-status-${f.value}`}
              onClick={() => setQuery({ status: f.value })}
            >
              {f.label}
            </button>
          ))}
        </div>
        <label className="mk-sort">
          <span className="muted">Sort</span>
          <select
            className="select"
            value={query.sort}
            data-testid="markets-sort"
            onChange={(e) => setQuery({ sort: e.target.value as MarketSort })}
          >
            {MARKET_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {shown.length === 0 ? (
        <p className="hint" data-testid="markets-empty">
          {markets.length === 0 ? 'No markets yet.' : 'No market matches this filter.'}
        </p>
      ) : (
        <div className="mk-grid">
          {shown.map((m) => (
            <MarketCard key={m.address} market={m} />
          ))}
        </div>
      )}
    </Card>
  )
}

function MarketCard({ market: m }: { market: MarketSnapshot }) {
  const token = useMarketToken()
  const now = useNow()
  const status = statusLabel(m.status)
  const symbol = token?.symbol ?? ''
  return (
    <a className="mk-card" href={marketHref(m.address)} data-testid="market-card" data-address={m.address}>
      <div className="mk-card-top">
        <span className={`pill tone-${status.tone}`}>{status.label}</span>
        <span className="mk-kind">{MARKET_KINDS[m.kind].shortName}</span>
        {m.metadata && <span className="mk-category">{m.metadata.category}</span>}
        <VerifiableBadge address={m.address} />
      </div>
      <h3 className="mk-question">{marketTitle(m)}</h3>
      <ul className="mk-outcomes-mini">
        {m.supplies.map((_, i) => (
          <li key={i}>
            <span className="mk-outcome-name">{outcomeLabel(m, i)}</span>
            <ProbabilityBar wad={m.probabilities[i]!} />
            <span className="mk-prob" title="implied probability">
              {formatProbability(m.probabilities[i]!, 1)}
            </span>
            <span className="mk-price muted" title="price per share">
              {formatPrice(m.spotPrices[i]!, m.priceDecimals, symbol, 3)}
            </span>
          </li>
        ))}
      </ul>
      <div className="mk-card-foot muted">
        <span>
          Pool{' '}
          {token
            ? formatTokenAmount(m.pool, token.decimals, { maxFractionDigits: 0, symbol })
            : String(m.pool)}
        </span>
        <span title={formatDeadline(m.tradingDeadline)}>
          Trading closes {formatUntil(m.tradingDeadline, now)}
        </span>
      </div>
    </a>
  )
}
