// The market's latest trades (GatewayBuy / GatewaySell events), newest first; the wallet's own marked;
// a warning when the source of the history (Delphi's subgraph) trails the chain.
import type { CollateralDeployment } from '../../host/chain/deployment.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import { outcomeLabel, type MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { formatShares } from '../../core/markets/share-amount.ts'
import { Card } from '../common/Card.tsx'
import { CountTitle } from '../common/CountTitle.tsx'
import { TableScroll } from '../common/TableScroll.tsx'
import { useMarketsStore } from '../stores.ts'

const NONE: never[] = []

export function RecentTrades({ market: m, token }: { market: MarketSnapshot; token: CollateralDeployment }) {
  const trades = useMarketsStore((s) => s.trades[m.address.toLowerCase()] ?? NONE)
  const owner = useMarketsStore((s) => s.owner)
  const warning = useMarketsStore((s) => s.historyWarning)
  return (
    <Card title={<CountTitle label="Recent trades" count={trades.length} />} testId="market-trades">
      {warning && (
        <p className="text-warn" role="status" data-testid="markets-history-warning">
          {warning}
        </p>
      )}
      {trades.length === 0 ? (
        <p className="hint">No trades since the market was created.</p>
      ) : (
        <TableScroll label="Recent trades">
          <table className="table mk-trades">
            <thead>
              <tr>
                <th>Block</th>
                <th>Trader</th>
                <th>Trade</th>
                <th className="num">Shares</th>
                <th className="num">{token.symbol}</th>
              </tr>
            </thead>
            <tbody>
              {[...trades].reverse().map((t) => {
                const mine = owner !== null && t.trader.toLowerCase() === owner.toLowerCase()
                return (
                  <tr
                    key={`${t.hash}:${t.logIndex}`}
                    data-testid="trade-row"
                    data-hash={t.hash}
                    data-trader={t.trader}
                    data-side={t.side}
                    data-outcome={t.outcome}
                    data-shares={t.shares.toString()}
                  >
                    <td className="muted">{String(t.blockNumber)}</td>
                    <td>
                      <code title={t.trader}>
                        {t.trader.slice(0, 6)}…{t.trader.slice(-4)}
                      </code>
                      {mine && <span className="mk-you">you</span>}
                    </td>
                    <td>
                      <span className={t.side === 'buy' ? 'text-good' : 'text-bad'}>
                        {t.side === 'buy' ? 'Bought' : 'Sold'}
                      </span>{' '}
                      {outcomeLabel(m, t.outcome)}
                    </td>
                    <td className="num">{formatShares(t.shares)}</td>
                    <td className="num">
                      {formatTokenAmount(t.tokens, token.decimals, { maxFractionDigits: 2 })}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Card>
  )
}
