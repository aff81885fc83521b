// One leaderboard peer in detail: its id, rewards, refused groups, trust score and chain record, and its
// rounds (ours from the round history; another peer's as our round reports and the feed saw them).
import { useMemo } from 'react'
import { type RoundRow } from '../../core/learning/learning-state.ts'
import { Card } from '../common/Card.tsx'
import { CopyButton } from '../common/CopyButton.tsx'
import type { LeaderRow } from './leaderboard-merge.ts'
import { heardRounds } from './peer-heard.ts'
import { refusalSummary } from './refusal-reasons.ts'
import { TableScroll } from '../common/TableScroll.tsx'
import { useLearningStore } from '../stores.ts'

/** Rounds listed in the detail, newest first; the export has them all. */
const DETAIL_ROUNDS = 30

const fixed = (n: number | undefined | null) => (n === undefined || n === null ? '—' : n.toFixed(2))

/** The round's cells as family/difficulty, the exploration slots' marked with a *; empty for older rows. */
const drawnCells = (r: RoundRow) =>
  (r.drawn ?? [])
    .map((d, i) => `${d.cell.replace(/^reasoning\//, '')}${i < (r.explored ?? 0) ? '*' : ''}`)
    .join(', ')

function OwnRounds({ rounds }: { rounds: readonly RoundRow[] }) {
  const recent = rounds.slice(-DETAIL_ROUNDS).reverse()
  if (recent.length === 0) return <p className="hint">No rounds yet.</p>
  return (
    <table className="table train-table compact">
      <thead>
        <tr>
          <th className="num">Round</th>
          <th className="num">Own</th>
          <th className="num">Swarm</th>
          <th title="the round's tasks by family/difficulty: * the public rotation's, the rest the curriculum's choice">
            Tasks
          </th>
          <th
            className="num"
            title="groups trained on: own + external (how many had rewards that differ: the rest have zero advantage)"
          >
            Trained
          </th>
          <th className="num">Refused</th>
          <th className="num">Loss</th>
        </tr>
      </thead>
      <tbody>
        {recent.map((r) =>
          r.skipped !== undefined ? (
            <tr key={r.round} data-testid="detail-round" data-round={r.round} data-skipped="true">
              <td className="num">{r.round}</td>
              <td colSpan={6} className="text-warn">
                skipped: {r.skipped}
              </td>
            </tr>
          ) : (
            <tr key={r.round} data-testid="detail-round" data-round={r.round}>
              <td className="num">{r.round}</td>
              <td className="num">{fixed(r.ownReward)}</td>
              <td className="num">{fixed(r.swarmReward)}</td>
              <td data-testid="detail-cells">{drawnCells(r)}</td>
              <td className="num">
                {r.trainedOn.local} + {r.trainedOn.external}
                {r.trainedOn.informative === undefined ? '' : ` (${r.trainedOn.informative} taught)`}
              </td>
              <td className={`num ${r.groupsRefused > 0 ? 'text-bad' : ''}`}>{r.groupsRefused}</td>
              <td className="num">{r.loss === undefined ? '—' : r.loss.toFixed(3)}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  )
}

function HeardRounds({ peerId, rounds }: { peerId: string; rounds: readonly RoundRow[] }) {
  const feed = useLearningStore((s) => s.feed)
  const heard = useMemo(
    () => heardRounds(rounds, feed, peerId).slice(0, DETAIL_ROUNDS),
    [rounds, feed, peerId],
  )
  if (heard.length === 0) return <p className="hint">Nothing of it arrived in this tab's rounds yet.</p>
  return (
    <table className="table train-table compact">
      <thead>
        <tr>
          <th className="num">Round</th>
          <th className="num" title="its completions this tab accepted">
            Completions
          </th>
          <th className="num" title="mean reward by this tab's verifiers">
            Reward
          </th>
          <th className="num" title="mean reward the peer claimed (recent rounds, from the feed)">
            Claimed
          </th>
          <th className="num">Refused</th>
        </tr>
      </thead>
      <tbody>
        {heard.map((r) => (
          <tr key={r.round} data-testid="detail-round" data-round={r.round}>
            <td className="num">{r.round}</td>
            <td className="num">{r.completions}</td>
            <td className="num">{fixed(r.reward)}</td>
            <td className="num">{fixed(r.claimed)}</td>
            <td
              className={`num ${r.refused > 0 ? 'text-bad' : ''}`}
              title={refusalSummary(r.refusedWhy) || undefined}
            >
              {r.refused}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function PeerDetail({ row, onClose }: { row: LeaderRow; onClose: () => void }) {
  const rounds = useLearningStore((s) => s.rounds)
  return (
    <Card
      title={
        <>
          {row.name}
          {row.self && <span className="tag">you</span>}
        </>
      }
      className="train-peer-detail"
      testId="peer-detail"
      data-peer={row.peerId}
      aside={
        <button type="button" className="btn btn-small" onClick={onClose} data-testid="peer-detail-close">
          Close
        </button>
      }
    >
      <div className="peer-detail-body">
        <dl className="kv train-kv">
          <dt>Peer id</dt>
          <dd className="id-line">
            <code className="peer-id" data-testid="peer-detail-id">
              {row.peerId}
            </code>
            <CopyButton text={row.peerId} />
          </dd>
          <dt>Rounds</dt>
          <dd>
            {row.rounds}
            {row.lastRound !== null && <span className="muted"> · last {row.lastRound}</span>}
          </dd>
          <dt>Mean reward</dt>
          <dd>
            {fixed(row.meanReward)}
            {row.completions > 0 && <span className="muted"> over {row.completions} completions</span>}
          </dd>
          <dt>Refused groups</dt>
          <dd className={row.refused > 0 ? 'text-bad' : ''} data-testid="peer-detail-refused">
            {row.refused}
          </dd>
          {row.refused > 0 && (
            <>
              <dt>Why refused</dt>
              <dd className="text-bad" data-testid="peer-detail-refused-why">
                {refusalSummary(row.refusedWhy) || <span className="muted">not recorded</span>}
              </dd>
            </>
          )}
          <dt>Trust score</dt>
          <dd data-testid="peer-detail-score">{row.score.toFixed(2)}</dd>
          <dt>On-chain</dt>
          <dd>
            {row.chainReward === null ? (
              <span className="muted">no chain data</span>
            ) : (
              <>
                {fixed(row.chainReward)} over {row.chainRounds} rounds · {row.wins} wins ·{' '}
                <span className={`badge claim-${row.registration}`}>{row.registration}</span>
              </>
            )}
          </dd>
          {row.wallets.length > 0 && (
            <>
              <dt>Wallets</dt>
              <dd>
                <ul className="addr-list">
                  {row.wallets.map((w) => (
                    <li key={w}>
                      <code title={w}>{w}</code>
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          )}
        </dl>
        <div>
          <h3>{row.self ? 'Its rounds' : 'Its rounds, as heard'}</h3>
          <TableScroll label="Rounds of this peer" className="detail-rounds">
            {row.self ? <OwnRounds rounds={rounds} /> : <HeardRounds peerId={row.peerId} rounds={rounds} />}
          </TableScroll>
        </div>
      </div>
    </Card>
  )
}
