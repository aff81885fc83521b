// Each round's reward on its way to SwarmCoordinator: queued, sending, confirmed (with the transaction)
// or failed (with the error as a sentence). Training never waits on these.
import { Fragment } from 'react'
import { needsConfirmation } from '../../host/chain/confirm-policy.ts'
import { type SubmissionStatus } from '../../core/learning/learning-state.ts'
import { useWalletControls } from '../use-controls.ts'
import { Card } from '../common/Card.tsx'
import { shortHash } from '../../host/verify/verify-files.ts'
import { REWARD_SCALE } from '../../host/rewards/submission-queue.ts'
import { TableScroll } from '../common/TableScroll.tsx'
import { useLearningStore, useWalletSettings, useWalletStore } from '../stores.ts'

const TONES: Record<SubmissionStatus, string> = {
  queued: 'muted',
  sending: 'warn',
  confirmed: 'good',
  failed: 'bad',
}

/** Rounds listed, newest first. */
const SUBMISSION_ROWS = 50

export function SubmissionsPanel() {
  const submissions = useLearningStore((s) => s.submissions)
  const rows = Object.values(submissions)
    .sort((a, b) => b.round - a.round)
    .slice(0, SUBMISSION_ROWS)
  const pending = rows.filter((s) => s.status === 'queued' || s.status === 'sending').length
  return (
    <Card
      title="On-chain submissions"
      className="train-submissions"
      testId="train-submissions"
      aside={
        pending > 0 ? (
          <span className="muted" data-testid="submissions-pending">
            {pending} pending
          </span>
        ) : undefined
      }
    >
      <NoChain />
      <ConfirmEachRound />
      <TableScroll label="On-chain submissions" className="train-feed-scroll">
        <table className="table train-table">
          <thead>
            <tr>
              <th className="num">Round</th>
              <th className="num" title="mean own reward of the round, as submitted">
                Reward
              </th>
              <th>Status</th>
              <th title="the transaction, and the training chain tip the reward carries">
                Transaction · chain tip
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr className="empty-row">
                <td colSpan={4}>
                  Rewards go on-chain once this peer is registered (Wallet view); each round appears here.
                </td>
              </tr>
            ) : (
              rows.map((s) => (
                <Fragment key={s.round}>
                  <tr
                    data-testid="submission-row"
                    data-round={s.round}
                    data-status={s.status}
                    data-tx={s.txHash ?? ''}
                    className={s.error ? 'has-error' : undefined}
                  >
                    <td className="num">{s.round}</td>
                    <td className="num">{(Number(s.reward) / REWARD_SCALE).toFixed(2)}</td>
                    <td>
                      <span className={`pill tone-${TONES[s.status]}`}>{s.status}</span>
                      {s.attempts > 1 && (
                        <span className="muted" title="attempts">
                          {' '}
                          ×{s.attempts}
                        </span>
                      )}
                    </td>
                    <td>
                      {s.txHash ? (
                        <code title={s.txHash}>{shortHash(s.txHash)}</code>
                      ) : (
                        <span className="muted">—</span>
                      )}
                      <span className="sub">
                        tip <code title={s.chainTip}>{shortHash(s.chainTip)}</code>
                      </span>
                    </td>
                  </tr>
                  {s.error && (
                    <tr className="error-row">
                      <td colSpan={4} className="text-bad" data-testid="submission-error">
                        {s.error}
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))
            )}
          </tbody>
        </table>
      </TableScroll>
    </Card>
  )
}

/**
 * An app server without a chain (its deployment answered with a note and no coordinator): the rounds
 * below are queued with nowhere to go, so say so where they pile up.
 */
function NoChain() {
  const noChain = useWalletStore((s) => s.deployment === null && s.deploymentNote !== null)
  if (!noChain) return null
  return (
    <p className="hint-block" data-testid="submissions-no-chain">
      This app server runs no chain with the swarm’s coordinator, so these rewards stay queued here (the
      Wallet view says more).
    </p>
  )
}

/**
 * With the burner, every round's reward and vote wait for a click in a confirmation dialog unless the
 * user lets routine swarm submissions go without asking: say so where the rounds pile up, with the
 * wallet setting's switch at hand.
 */
function ConfirmEachRound() {
  const controls = useWalletControls()
  const kind = useWalletStore((s) => s.kind)
  const autoApprove = useWalletSettings((s) => s.autoApproveSwarm)
  if (kind !== 'burner' || !needsConfirmation(kind, 'swarm', autoApprove)) return null
  return (
    <p className="hint-block" data-testid="submissions-confirm-hint">
      The burner asks you to confirm each round’s reward and vote before sending them.{' '}
      <button
        type="button"
        className="btn btn-small"
        data-testid="submissions-auto-approve"
        disabled={!controls}
        onClick={() => controls?.setAutoApproveSwarm(true)}
      >
        Send them without asking
      </button>{' '}
      (the Wallet view’s settings turn this off again).
    </p>
  )
}
