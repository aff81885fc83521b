// Every peer this tab knows, from the network (connections, counters) and from presence (name, device).
import { Card } from '../common/Card.tsx'
import { CountTitle } from '../common/CountTitle.tsx'
import { RelativeTime } from '../common/RelativeTime.tsx'
import { formatBytes, formatCapabilities, formatScore, shortId } from '../../host/format.ts'
import type { PeerRow } from '../peer-rows.ts'
import { TableScroll } from '../common/TableScroll.tsx'

function PeerTableRow({ row }: { row: PeerRow }) {
  const c = row.counters
  const caps = formatCapabilities(row.presence?.capabilities)
  return (
    <tr
      data-testid="peer-row"
      data-peer-id={row.id}
      data-connection={row.connection}
      data-addrs={row.addrs.join(' ')}
      data-presence={row.presence?.presenceCount ?? 0}
    >
      <td data-testid="peer-name" className="peer-name">
        {row.name ?? <span className="muted">—</span>}
      </td>
      <td>
        <code title={row.id}>{shortId(row.id)}</code>
      </td>
      <td>
        <span
          className={`badge conn-${row.connection}`}
          data-testid="peer-connection"
          title={row.addrs.join('\n') || 'no open connection: messages arrive through other peers'}
        >
          {row.connectionLabel}
        </span>
      </td>
      <td className="num" data-testid="peer-rtt">
        {row.rttMs === null ? '—' : `${Math.round(row.rttMs)} ms`}
      </td>
      <td className="num">
        <RelativeTime at={row.lastSeen} testId="peer-last-seen" />
      </td>
      <td className="num traffic">
        {c ? (
          <>
            <span data-testid="peer-messages">{`${c.messagesIn} / ${c.messagesOut}`}</span>
            <span className="sub">{`${formatBytes(c.bytesIn)} / ${formatBytes(c.bytesOut)}`}</span>
          </>
        ) : (
          '—'
        )}
      </td>
      <td className={`num ${c && c.rejected > 0 ? 'text-bad' : ''}`} data-testid="peer-rejected">
        {c ? c.rejected : '—'}
      </td>
      <td className={`num ${row.score !== null && row.score < 0 ? 'text-bad' : ''}`}>
        {row.score === null ? '—' : formatScore(row.score)}
      </td>
      <td>{row.presence?.appVersion ?? '—'}</td>
      <td className="caps">
        <span className={caps.gpu === 'no WebGPU' ? 'muted' : ''} title={caps.gpu}>
          {caps.gpu}
        </span>
        {caps.device && <span className="sub">{caps.device}</span>}
      </td>
    </tr>
  )
}

export function PeersTable({ rows }: { rows: readonly PeerRow[] }) {
  return (
    <Card title={<CountTitle label="Peers" count={rows.length} testId="peer-count" />} className="peers-card">
      <TableScroll label="Peers">
        <table className="table peers-table" data-testid="peers-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Peer</th>
              <th>Connection</th>
              <th className="num">RTT</th>
              <th className="num">Last seen</th>
              <th className="num" title="messages, and bytes, received from / sent to this peer">
                Traffic in / out
              </th>
              <th className="num" title="messages from this peer that failed validation">
                Rejected
              </th>
              <th className="num" title="gossipsub score; negative means misbehaving">
                Score
              </th>
              <th>Version</th>
              <th>Capabilities</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr className="empty-row">
                <td colSpan={10}>
                  No peers yet. They appear here as soon as they connect or announce themselves.
                </td>
              </tr>
            ) : (
              rows.map((row) => <PeerTableRow key={row.id} row={row} />)
            )}
          </tbody>
        </table>
      </TableScroll>
    </Card>
  )
}
