// What the Train view's banner says, from the learning state: nothing while learning runs as it should;
// a warning when learning goes on without something it needs (a save that fails); and, for a newcomer
// whose peer is not registered yet, the normal state it is — learning, with its rewards held until
// the registration.
import type { LearningState } from '../../core/learning/learning-state.ts'

export interface TrainBanner {
  tone: 'good' | 'warn' | 'bad'
  title: string
  detail: string
}

type BannerInputs = Pick<LearningState, 'phase' | 'message' | 'degraded' | 'rewardsWaitForRegistration'>

export function trainBanner({
  phase,
  message,
  degraded,
  rewardsWaitForRegistration,
}: BannerInputs): TrainBanner | null {
  if (phase === 'off')
    return {
      tone: 'warn',
      title: 'This swarm does not learn',
      detail:
        message ??
        'Its swarm config has no learning section. Open a learning swarm’s link (Settings → swarm config) to train with it.',
    }
  if (phase === 'loading')
    return {
      tone: 'warn',
      title: 'Loading the model…',
      detail: message ?? 'The first round starts when the weights are ready.',
    }
  if (phase === 'error')
    return {
      tone: 'bad',
      title: 'Learning stopped',
      detail: message ?? 'The round loop failed; reload the tab to try again.',
    }
  // a degradation's sentence first: it says what is lost now (a reload would go back), and lasts
  const lost = Object.values(degraded)
  if (lost.length > 0)
    return { tone: 'warn', title: 'Learning, degraded', detail: lost.concat(message ?? []).join(' ') }
  if (message === null) return null
  return rewardsWaitForRegistration
    ? { tone: 'good', title: 'Learning; rewards wait for registration', detail: message }
    : { tone: 'warn', title: 'Learning, degraded', detail: message }
}
