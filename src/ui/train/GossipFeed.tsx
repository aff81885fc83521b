// The latest rollouts other peers shared: round, who, task family, prompt, answer, and the reward the
// sender claimed next to ours (our verifiers re-score every external completion after the window), or
// why we refused it.
import { type HeardRollout } from '../../core/learning/learning-state.ts'
import { Card } from '../common/Card.tsx'
import { CountTitle } from '../common/CountTitle.tsx'
import { TableScroll } from '../common/TableScroll.tsx'
import { useLearningStore } from '../stores.ts'

/** Rows shown; the store keeps FEED_LIMIT for the peer detail. */
const FEED_ROWS = 50

function RewardCell({ h }: { h: HeardRollout }) {
  // rows come after the window, once judged: no reward of ours means we refused the group
  if (h.reward === undefined)
    return (
      <td
        className="num text-bad"
        title={`refused: ${h.refused ?? 'see the peer detail'}`}
        data-testid="feed-refused"
      >
        {h.claimedReward.toFixed(2)} / refused
      </td>
    )
  // an accepted group's claims are our rewards (a group whose claims are not is refused)
  return (
    <td className="num">
      {h.claimedReward.toFixed(2)} / <strong>{h.reward.toFixed(2)}</strong>
    </td>
  )
}

export function GossipFeed() {
  const feed = useLearningStore((s) => s.feed)
  const rows = feed.slice(0, FEED_ROWS)
  return (
    <Card
      title={<CountTitle label="Gossip feed" count={feed.length} testId="feed-count" />}
      className="train-feed"
      testId="train-feed"
    >
      <TableScroll label="Gossip feed" className="train-feed-scroll">
        <table className="table train-table">
          <thead>
            <tr>
              <th className="num">Round</th>
              <th>From</th>
              <th>Task</th>
              <th>Answer</th>
              <th className="num" title="the sender's reward / ours">
                Claimed / ours
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr className="empty-row">
                <td colSpan={5}>Other peers' rollouts appear here as they arrive.</td>
              </tr>
            ) : (
              rows.map((h, i) => (
                <tr
                  key={`${h.from}-${h.round}-${h.receivedAt}-${i}`}
                  data-testid="feed-row"
                  data-peer={h.from}
                  data-round={h.round}
                >
                  <td className="num">{h.round}</td>
                  <td className="peer-name clip" title={h.from}>
                    {h.name}
                  </td>
                  <td className="clip" title={h.prompt}>
                    <span className="badge family">{h.family}</span> {h.prompt}
                  </td>
                  <td className="clip mono" title={h.answer}>
                    {h.answer}
                  </td>
                  <RewardCell h={h} />
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>
    </Card>
  )
}
