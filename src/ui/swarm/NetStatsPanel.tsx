// Traffic through this tab's node: rates, totals, rejections, queue, and a minute of history.
import { Card } from '../common/Card.tsx'
import { Sparkline } from '../common/Sparkline.tsx'
import { formatByteRate, formatBytes, formatRate } from '../../host/format.ts'
import { currentRates, messageRateSeries } from '../net-rates.ts'
import { IGNORED_REASONS } from '../../core/protocol/gossip-validator.ts'
import { versionNotice } from './version-notice.ts'
import { useNetStore } from '../stores.ts'

const HISTORY = 60

export function NetStatsPanel() {
  const stats = useNetStore((s) => s.stats)
  const history = useNetStore((s) => s.history)
  const rates = currentRates(history)
  const series = messageRateSeries(history.slice(-HISTORY))
  const notice = versionNotice(stats.rejectedByReason)
  const reasons = Object.entries(stats.rejectedByReason).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))

  return (
    <Card title="Network" className="stats-card" testId="net-stats">
      <table className="table stats-table">
        <thead>
          <tr>
            <th />
            <th className="num">in</th>
            <th className="num">out</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">messages/s</th>
            <td className="num" data-testid="messages-in-rate">
              {formatRate(rates?.messagesIn ?? null)}
            </td>
            <td className="num" data-testid="messages-out-rate">
              {formatRate(rates?.messagesOut ?? null)}
            </td>
          </tr>
          <tr>
            <th scope="row">bytes/s</th>
            <td className="num">{formatByteRate(rates?.bytesIn ?? null)}</td>
            <td className="num">{formatByteRate(rates?.bytesOut ?? null)}</td>
          </tr>
          <tr>
            <th scope="row">messages</th>
            <td className="num" data-testid="messages-in-total" data-value={stats.messagesIn}>
              {stats.messagesIn}
            </td>
            <td className="num" data-testid="messages-out-total" data-value={stats.messagesOut}>
              {stats.messagesOut}
            </td>
          </tr>
          <tr>
            <th scope="row">bytes</th>
            <td className="num">{formatBytes(stats.bytesIn)}</td>
            <td className="num">{formatBytes(stats.bytesOut)}</td>
          </tr>
        </tbody>
      </table>

      <div className="spark-block">
        <div className="spark-head">
          <span>messages/s, last minute</span>
          <span className="spark-keys">
            <span className="key key-in">in</span>
            <span className="key key-out">out</span>
          </span>
        </div>
        <Sparkline
          testId="messages-sparkline"
          capacity={HISTORY - 1}
          series={[
            { values: series.in, className: 'spark-in', label: 'messages in per second' },
            { values: series.out, className: 'spark-out', label: 'messages out per second' },
          ]}
        />
      </div>

      <dl className="kv kv-inline">
        <dt>Queue to worker</dt>
        <dd data-testid="queue-depth" className={stats.queueDepth > 100 ? 'text-warn' : ''}>
          {stats.queueDepth}
        </dd>
        <dt title="gossip messages that failed validation, ignored ones included">Rejected</dt>
        <dd
          data-testid="rejected-total"
          data-value={stats.rejected}
          className={stats.rejected > 0 ? 'text-bad' : ''}
        >
          {stats.rejected}
        </dd>
        <dt title="refused for their timing or a newer protocol version: not held against the peer that relayed them">
          of which ignored
        </dt>
        <dd data-testid="ignored-total" data-value={stats.ignored}>
          {stats.ignored}
        </dd>
        <dt title="hung up on and refused for 5 minutes after too many invalid messages">Blocked peers</dt>
        <dd
          data-testid="blocked-peers"
          data-value={stats.blockedPeers}
          className={stats.blockedPeers > 0 ? 'text-bad' : ''}
        >
          {stats.blockedPeers}
        </dd>
      </dl>
      {notice !== null && (
        <p className="text-warn" data-testid="version-notice">
          {notice}
        </p>
      )}
      {reasons.length > 0 && (
        <table className="table reasons-table" data-testid="rejected-reasons">
          <thead>
            <tr>
              <th>rejection reason</th>
              <th title="whether the peer that relayed it is held to account (lower gossip score, hung up on after repeats)">
                charged
              </th>
              <th className="num">count</th>
            </tr>
          </thead>
          <tbody>
            {reasons.map(([reason, count]) => (
              <tr key={reason}>
                <td>{reason}</td>
                <td>{IGNORED_REASONS.has(reason) ? 'no, ignored' : 'yes'}</td>
                <td className="num" data-testid={`rejected-${reason}`} data-value={count}>
                  {count}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  )
}
