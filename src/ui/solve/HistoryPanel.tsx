// The solved tasks of this browser (kept across reloads), newest first, with each completion's reward.
import { solverStore, type HistoryRow } from '../../host/stores/solver-store.ts'
import { Card } from '../common/Card.tsx'
import { formatCompact } from '../../host/format.ts'
import { TableScroll } from '../common/TableScroll.tsx'
import { useSolverStore } from '../stores.ts'

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0)
const fixed = (n: number) => n.toFixed(2)

function Row({ row, index }: { row: HistoryRow; index: number }) {
  const avg = mean(row.rewards)
  return (
    <tr
      data-testid="history-row"
      data-task-id={row.taskId}
      data-rewards={row.rewards.join(' ')}
      data-formatted={row.formatted}
    >
      <td className="num muted">{index}</td>
      <td>{row.family}</td>
      <td className="num">{row.difficulty}</td>
      <td className="num">{row.seed}</td>
      <td className="solve-history-rewards">{row.rewards.map(fixed).join(' ')}</td>
      <td className="num" data-testid="history-mean">
        <strong className={avg > 0 ? 'text-good' : avg < 0 ? 'text-bad' : ''}>{fixed(avg)}</strong>
      </td>
      <td className="num">
        {row.correct}/{row.rewards.length}
      </td>
      <td className="num">{Math.round(row.passAt1 * 100)}%</td>
      <td className="num">{formatCompact(row.tokensPerSecond)}</td>
    </tr>
  )
}

export function HistoryPanel() {
  const history = useSolverStore((s) => s.history)
  const rewards = history.flatMap((h) => h.rewards)
  return (
    <Card
      title="Solved tasks"
      testId="history"
      aside={
        <span className="muted" data-testid="history-summary">
          {history.length} task{history.length === 1 ? '' : 's'} · mean reward {fixed(mean(rewards))} · pass@1{' '}
          {Math.round(mean(history.map((h) => h.passAt1)) * 100)}%
        </span>
      }
    >
      {history.length === 0 ? (
        <p className="hint">Solved tasks appear here, with the reward of every completion.</p>
      ) : (
        <>
          <TableScroll label="Solve history" className="solve-history">
            <table className="table">
              <thead>
                <tr>
                  <th className="num">#</th>
                  <th>family</th>
                  <th className="num">diff.</th>
                  <th className="num">seed</th>
                  <th>rewards</th>
                  <th className="num">mean</th>
                  <th className="num">correct</th>
                  <th className="num">pass@1</th>
                  <th className="num">tok/s</th>
                </tr>
              </thead>
              <tbody>
                {history
                  .map((row, i) => <Row key={`${row.solvedAt}-${i}`} row={row} index={i + 1} />)
                  .reverse()}
              </tbody>
            </table>
          </TableScroll>
          <div className="button-row">
            <button
              type="button"
              className="btn btn-small"
              data-testid="history-clear"
              onClick={() => solverStore.setState({ history: [] })}
            >
              Clear history
            </button>
          </div>
        </>
      )}
    </Card>
  )
}
