// The Train view's charts: reward per round (own vs the swarm's mean), held-out pass@1 with its 95 %
// interval, the step's gradient norm (with the KL to the reference policy when the swarm trains with a
// KL penalty) and how many rounds had a learning signal, the groups of each step that carried a signal,
// and sampling speed. The gradient norm stands where a loss chart would: the on-policy GRPO surrogate
// is zero-mean, so its loss reads 0.000 even in rounds that moved the weights (the loss stays in the
// export and the peer table). Series are
// memoised on the store's arrays, so a chart redraws only when they change.
import { useMemo } from 'react'
import { Card } from '../common/Card.tsx'
import { formatCompact } from '../../host/format.ts'
import { LineChart, type ChartSeries } from './LineChart.tsx'
import { groupsTrained, groupsWithSignal, signalShare } from './round-signal.ts'
import {
  evalBand,
  evalSeries,
  hasKl,
  ownReward,
  roundGradNorm,
  roundKl,
  roundSeries,
  skippedMarks,
  swarmReward,
  tokensPerSecond,
} from './round-series.ts'
import { useLearningStore } from '../stores.ts'

const ZERO: readonly number[] = [0]
const ZERO_ONE: readonly number[] = [0, 1]
const fixed2 = (y: number) => y.toFixed(2)
const fixed3 = (y: number) => y.toFixed(3)
const percent = (y: number) => `${Math.round(y * 100)}%`
const perSecond = (y: number) => `${formatCompact(y)}/s`

export function TrainCharts() {
  const rounds = useLearningStore((s) => s.rounds)
  const evals = useLearningStore((s) => s.evals)
  const marks = useMemo(() => skippedMarks(rounds), [rounds])
  const reward = useMemo<ChartSeries[]>(
    () => [
      { label: 'own', tone: 'accent', points: roundSeries(rounds, ownReward) },
      { label: 'swarm mean', tone: 'accent-2', points: roundSeries(rounds, swarmReward) },
    ],
    [rounds],
  )
  const pass1 = useMemo<ChartSeries[]>(
    () => [
      {
        label: 'pass@1 (held-out, 95 % interval)',
        tone: 'good',
        points: evalSeries(evals),
        band: evalBand(evals),
      },
    ],
    [evals],
  )
  const showKl = useMemo(() => hasKl(rounds), [rounds])
  const share = useMemo(() => signalShare(rounds), [rounds])
  const gradient = useMemo<ChartSeries[]>(
    () => [
      { label: 'gradient norm (before clipping)', tone: 'warn', points: roundSeries(rounds, roundGradNorm) },
      ...(showKl
        ? [{ label: 'KL to reference', tone: 'accent-2' as const, points: roundSeries(rounds, roundKl) }]
        : []),
    ],
    [rounds, showKl],
  )
  const signal = useMemo<ChartSeries[]>(
    () => [
      { label: 'with a signal', tone: 'good', points: roundSeries(rounds, groupsWithSignal) },
      { label: 'trained', tone: 'accent-2', points: roundSeries(rounds, groupsTrained) },
    ],
    [rounds],
  )
  const speed = useMemo<ChartSeries[]>(
    () => [{ label: 'sampling', tone: 'accent', points: roundSeries(rounds, tokensPerSecond) }],
    [rounds],
  )
  return (
    <div className="train-charts">
      <Card title="Reward per round" testId="train-reward-card">
        <LineChart
          series={reward}
          marks={marks}
          yInclude={ZERO}
          format={fixed2}
          empty="Rewards appear after the first round."
          testId="reward"
        />
      </Card>
      <Card title="Held-out pass@1" testId="train-pass1-card">
        <LineChart
          series={pass1}
          yInclude={ZERO_ONE}
          format={percent}
          empty="The first evaluation runs after a few rounds."
          testId="pass1"
        />
      </Card>
      <Card
        title={showKl ? 'Gradient norm and KL per round' : 'Gradient norm per round'}
        testId="train-gradnorm-card"
      >
        <p
          className="train-note muted"
          data-testid="train-signal-share"
          data-signal={share.withSignal}
          data-rounds={share.rounds}
        >
          Rounds with a learning signal (some group&apos;s rewards differed): {share.withSignal} of{' '}
          {share.rounds}
        </p>
        <LineChart
          series={gradient}
          marks={marks}
          yInclude={ZERO}
          format={fixed3}
          empty="The gradient norm appears after the first training step."
          testId="gradnorm"
        />
      </Card>
      <Card title="Groups with a signal per round" testId="train-signal-card">
        <LineChart
          series={signal}
          marks={marks}
          yInclude={ZERO}
          format={String}
          empty="Groups appear after the first training step."
          testId="signal"
        />
      </Card>
      <Card title="Tokens per second" testId="train-speed-card">
        <LineChart
          series={speed}
          marks={marks}
          yInclude={ZERO}
          format={perSecond}
          empty="Sampling speed appears after the first round."
          testId="tokens"
        />
      </Card>
    </div>
  )
}
