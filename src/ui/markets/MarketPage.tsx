// One market: its question, status, deadlines, fee, pool, resolution criteria, and on Delphi its
// verifiable badge and settlement proof; its outcomes with the price of a share AND the implied
// probability, each in its own labelled column; the wallet's position; the probability chart from the
// trade events; the trade panel; the position panel (redeem / liquidate once the market has ended);
// the edge view; recent trades from the chain's events.
import { useState } from 'react'
import type { Address } from 'viem'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import type { CollateralDeployment } from '../../host/chain/deployment.ts'
import { mathsMarket, mathsPayoutIfWins } from '../../core/markets/market-maths.ts'
import { MARKET_KINDS } from '../../core/markets/market-kinds.ts'
import {
  formatDeadline,
  formatFee,
  formatPrice,
  formatProbability,
  formatUntil,
} from '../../core/markets/market-format.ts'
import {
  marketTitle,
  outcomeLabel,
  type MarketPosition,
  type MarketSnapshot,
} from '../../core/markets/market-snapshot.ts'
import { statusLabel } from '../../core/markets/market-status.ts'
import { formatShares } from '../../core/markets/share-amount.ts'
import { Card } from '../common/Card.tsx'
import { useNow } from '../use-now.ts'
import { SettlementProofFact, VerifiableBadge } from './MarketSettlement.tsx'
import { MarketsStatus } from './MarketsStatus.tsx'
import { ProbabilityBar } from './ProbabilityBar.tsx'
import { EdgePanel } from './EdgePanel.tsx'
import { ProbabilityChart } from './ProbabilityChart.tsx'
import { RecentTrades } from './RecentTrades.tsx'
import { PositionPanel } from './PositionPanel.tsx'
import { TradePanel } from './TradePanel.tsx'
import { MARKETS_HREF } from '../../host/markets/market-route.ts'
import { useMarketToken } from './use-market-token.ts'
import { TableScroll } from '../common/TableScroll.tsx'
import { useMarketsStore } from '../stores.ts'

export function MarketPage({ address }: { address: Address }) {
  const key = address.toLowerCase()
  const market = useMarketsStore((s) => s.markets.find((m) => m.address.toLowerCase() === key) ?? null)
  const position = useMarketsStore((s) => s.positions[key] ?? null)
  const balance = useMarketsStore((s) => s.collateralBalance)
  const phase = useMarketsStore((s) => s.phase)
  const token = useMarketToken()
  const [outcome, setOutcome] = useState(0)

  if (!market || !token)
    return (
      <Card title="Market" testId="market-page" aside={<MarketsStatus />}>
        <a href={MARKETS_HREF}>← All markets</a>
        <p className="hint">
          {phase === 'ready' ? `No market at ${address} on this chain.` : 'Reading the market…'}
        </p>
      </Card>
    )

  return (
    <div className="mk-page" data-testid="market-page" data-address={market.address}>
      <div className="mk-page-main">
        <MarketHeader market={market} token={token} />
        <OutcomesCard
          market={market}
          position={position}
          token={token}
          selected={outcome}
          onSelect={setOutcome}
        />
        <ProbabilityChart market={market} />
        <EdgePanel market={market} position={position} token={token} />
        <RecentTrades market={market} token={token} />
      </div>
      <div className="mk-page-side">
        <TradePanel
          market={market}
          position={position}
          balance={balance}
          token={token}
          outcome={outcome}
          onOutcome={setOutcome}
        />
        <PositionPanel market={market} position={position} balance={balance} token={token} />
      </div>
    </div>
  )
}

function MarketHeader({ market: m, token }: { market: MarketSnapshot; token: CollateralDeployment }) {
  const now = useNow()
  const status = statusLabel(m.status)
  return (
    <Card title={<a href={MARKETS_HREF}>← All markets</a>} testId="market-header" aside={<MarketsStatus />}>
      <div className="mk-card-top">
        <span className={`pill tone-${status.tone}`} data-testid="market-status" data-status={m.status}>
          {status.label}
        </span>
        <span className="mk-kind">{MARKET_KINDS[m.kind].name}</span>
        {m.metadata && <span className="mk-category">{m.metadata.category}</span>}
        <VerifiableBadge address={m.address} />
      </div>
      <h1 className="mk-title" data-testid="market-question">
        {marketTitle(m)}
      </h1>
      {m.metadataError && <p className="inline-error">{m.metadataError}</p>}
      <dl className="kv mk-facts">
        <dt>Trading closes</dt>
        <dd data-testid="market-trading-deadline">
          {formatDeadline(m.tradingDeadline)}{' '}
          <span className="muted">({formatUntil(m.tradingDeadline, now)})</span>
        </dd>
        <dt>Settlement by</dt>
        <dd>
          {formatDeadline(m.settlementDeadline)}{' '}
          <span className="muted">({formatUntil(m.settlementDeadline, now)})</span>
        </dd>
        <dt>Trading fee</dt>
        <dd data-testid="market-fee">{formatFee(m.tradingFee)}</dd>
        <dt>Pool</dt>
        <dd data-testid="market-pool" data-units={m.pool.toString()}>
          {formatTokenAmount(m.pool, token.decimals, { maxFractionDigits: 2, symbol: token.symbol })}
        </dd>
        <dt>{MARKET_KINDS[m.kind].liquidity.label}</dt>
        <dd>{formatTokenAmount(m.k, 18, { maxFractionDigits: 2 })}</dd>
        <dt>Contract</dt>
        <dd>
          <code className="peer-id">{m.address}</code>
        </dd>
        <SettlementProofFact address={m.address} />
      </dl>
      {m.metadata?.resolutionCriteria && (
        <>
          <h3>Resolution criteria</h3>
          <p className="mk-criteria" data-testid="market-criteria">
            {m.metadata.resolutionCriteria}
          </p>
        </>
      )}
    </Card>
  )
}

function OutcomesCard({
  market: m,
  position,
  token,
  selected,
  onSelect,
}: {
  market: MarketSnapshot
  position: MarketPosition | null
  token: CollateralDeployment
  selected: number
  onSelect: (i: number) => void
}) {
  const maths = mathsMarket(m)
  const amount = (v: bigint) =>
    formatTokenAmount(v, token.decimals, { maxFractionDigits: 2, symbol: token.symbol })
  const holds = position?.shares.some((s) => s > 0n) ?? false
  return (
    <Card title="Outcomes" testId="market-outcomes">
      <TableScroll label="Outcomes">
        <table className="table mk-outcomes">
          <thead>
            <tr>
              <th>Outcome</th>
              <th className="num">Price per share</th>
              <th className="num">Implied probability</th>
              {position && <th className="num">Your shares</th>}
              {holds && <th className="num">Pays if it wins</th>}
            </tr>
          </thead>
          <tbody>
            {m.supplies.map((_, i) => {
              const shares = position?.shares[i] ?? 0n
              return (
                <tr
                  key={i}
                  className={i === selected ? 'selected' : ''}
                  data-testid="outcome-row"
                  data-outcome={i}
                  data-price-units={m.spotPrices[i]!.toString()}
                  data-probability-wad={m.probabilities[i]!.toString()}
                  data-shares={shares.toString()}
                  onClick={() => onSelect(i)}
                >
                  <td className="mk-outcome-name">{outcomeLabel(m, i)}</td>
                  <td className="num" data-testid="outcome-price">
                    {formatPrice(m.spotPrices[i]!, m.priceDecimals, token.symbol)}
                  </td>
                  <td className="num mk-prob-cell" data-testid="outcome-probability">
                    <ProbabilityBar wad={m.probabilities[i]!} />
                    {formatProbability(m.probabilities[i]!)}
                  </td>
                  {position && (
                    <td className="num" data-testid="outcome-shares">
                      {shares > 0n ? formatShares(shares) : <span className="muted">—</span>}
                    </td>
                  )}
                  {holds && (
                    <td className="num">
                      {shares > 0n ? (
                        amount(mathsPayoutIfWins(maths, i, shares))
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                  )}
                </tr>
              )
            })}
          </tbody>
        </table>
      </TableScroll>
      <p className="hint">
        The price is what one more share costs now, in {token.symbol}; the implied probability is the market’s
        estimate that the outcome wins. {MARKET_KINDS[m.kind].priceNote}
      </p>
    </Card>
  )
}
