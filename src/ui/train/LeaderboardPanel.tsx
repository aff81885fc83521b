// The Train leaderboard: gossip and chain merged (leaderboard-merge.ts). A row opens the peer's detail.
// Senders with nothing but refused groups are listed apart, collapsed, under the ranked peers.
import type { ChainBoard } from './use-chain-leaderboard.ts'
import { Card } from '../common/Card.tsx'
import { CountTitle } from '../common/CountTitle.tsx'
import { shortId } from '../../host/format.ts'
import { splitLeaderboard, type LeaderRow, type Registration } from './leaderboard-merge.ts'
import { refusalSummary } from './refusal-reasons.ts'
import { TableScroll } from '../common/TableScroll.tsx'

const REGISTRATION_LABELS: Record<Registration, string> = {
  verified: 'verified',
  unverified: 'unverified',
  unregistered: 'not registered',
  unknown: '—',
}

const REGISTRATION_TITLES: Record<Registration, string> = {
  verified: 'registered on-chain with a proof signed by this peer key',
  unverified: 'registered on-chain, but the proof does not check: its rewards and votes are not counted',
  unregistered: 'no claim of this peer on the chain',
  unknown: 'no chain data',
}

const reward = (n: number | null) => (n === null ? '—' : n.toFixed(2))

/** What the chain side of the board is, in one line. */
function chainNote(chain: ChainBoard): { text: string; tone: 'muted' | 'warn' | 'bad' } | null {
  switch (chain.status) {
    case 'loading':
      return { text: 'Reading the chain…', tone: 'muted' }
    case 'none':
      return { text: `No chain configured: gossip only. ${chain.note}`, tone: 'warn' }
    case 'error':
      return { text: `Chain unreachable: gossip only. ${chain.error}`, tone: 'bad' }
    case 'ready':
      return chain.error ? { text: `Showing the last chain read. ${chain.error}`, tone: 'warn' } : null
  }
}

function Row({
  row,
  rank,
  selected,
  onSelect,
}: {
  row: LeaderRow
  /** null: not ranked (a refused-only sender) */
  rank: number | null
  selected: boolean
  onSelect: (peerId: string) => void
}) {
  return (
    <tr
      data-testid="leaderboard-row"
      data-peer={row.peerId}
      data-registration={row.registration}
      data-rounds={row.rounds}
      data-wins={row.wins ?? ''}
      data-chain-reward={row.chainReward ?? ''}
      data-score={row.score}
      data-refused={row.refused}
      className={`clickable ${selected ? 'selected' : ''} ${row.self ? 'self-row' : ''}`}
      onClick={() => onSelect(row.peerId)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          onSelect(row.peerId)
        }
      }}
      tabIndex={0}
      aria-selected={selected}
    >
      <td className="num muted">{rank ?? '—'}</td>
      <td className="peer-name">
        {row.name}
        {row.self && <span className="tag">you</span>}
        <span className="sub">
          <code title={row.peerId}>{shortId(row.peerId)}</code>
        </span>
      </td>
      <td>
        <span
          className={row.registration === 'unknown' ? 'muted' : `badge claim-${row.registration}`}
          data-testid="leaderboard-registration"
          title={REGISTRATION_TITLES[row.registration]}
        >
          {REGISTRATION_LABELS[row.registration]}
        </span>
      </td>
      <td className="num" data-testid="leaderboard-chain-reward">
        {reward(row.chainReward)}
      </td>
      <td className="num" data-testid="leaderboard-wins">
        {row.wins ?? '—'}
      </td>
      <td className="num">{row.rounds}</td>
      <td className="num">{reward(row.meanReward)}</td>
      <td className={`num ${row.score < 1 ? 'text-bad' : ''}`} data-testid="leaderboard-score">
        {row.score.toFixed(2)}
      </td>
      <td
        className={`num ${row.refused > 0 ? 'text-bad' : ''}`}
        title={refusalSummary(row.refusedWhy) || undefined}
        data-testid="leaderboard-refused"
      >
        {row.refused}
      </td>
    </tr>
  )
}

/** The columns, shared by the ranked table and the refused senders' one. */
function Head() {
  return (
    <thead>
      <tr>
        <th className="num">#</th>
        <th>Peer</th>
        <th>Registration</th>
        <th className="num" title="rewards submitted on-chain (proven claims), summed over rounds">
          On-chain reward
        </th>
        <th className="num" title="winner votes from proven claims">
          Wins
        </th>
        <th className="num" title="rounds it took part in">
          Rounds
        </th>
        <th className="num" title="mean reward per completion, by this tab's verifiers">
          Mean reward
        </th>
        <th
          className="num"
          title="this tab's trust in its rollouts: 1 = trusted, lowered for every refused group"
        >
          Trust
        </th>
        <th className="num" title="groups this tab refused (hover a count for why)">
          Refused
        </th>
      </tr>
    </thead>
  )
}

export function LeaderboardPanel({
  rows,
  chain,
  selected,
  onSelect,
}: {
  rows: readonly LeaderRow[]
  chain: ChainBoard
  selected: string | null
  onSelect: (peerId: string) => void
}) {
  const note = chainNote(chain)
  const { ranked, refused } = splitLeaderboard(rows)
  const rowOf = (row: LeaderRow, rank: number | null) => (
    <Row key={row.peerId} row={row} rank={rank} selected={row.peerId === selected} onSelect={onSelect} />
  )
  return (
    <Card
      title={<CountTitle label="Leaderboard" count={ranked.length} testId="leaderboard-count" />}
      className="train-leaderboard"
      testId="train-leaderboard"
      aside={
        <span className="muted" data-testid="leaderboard-source" data-chain={chain.status}>
          {chain.status === 'ready' ? 'chain + gossip' : 'gossip'}
        </span>
      }
    >
      {note && (
        <p className={`train-note text-${note.tone}`} data-testid="leaderboard-chain-note">
          {note.text}
        </p>
      )}
      <TableScroll label="Leaderboard">
        <table className="table train-table">
          <Head />
          <tbody>
            {ranked.length === 0 ? (
              <tr className="empty-row">
                <td colSpan={9}>No learning peers yet. They appear when their rollouts arrive.</td>
              </tr>
            ) : (
              ranked.map((row, i) => rowOf(row, i + 1))
            )}
          </tbody>
        </table>
      </TableScroll>
      {refused.length > 0 && (
        <details className="leaderboard-refused" data-testid="leaderboard-refused-senders">
          <summary title="no group of theirs was accepted and the chain holds no proven claim of them: not ranked">
            <span data-testid="leaderboard-refused-count">{refused.length}</span>{' '}
            {refused.length === 1 ? 'sender' : 'senders'} with every group refused
          </summary>
          <TableScroll label="Refused senders">
            <table className="table train-table">
              <Head />
              <tbody>{refused.map((row) => rowOf(row, null))}</tbody>
            </table>
          </TableScroll>
        </details>
      )}
    </Card>
  )
}
