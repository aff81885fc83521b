import { describe, expect, it } from 'vitest'
import { initialLearningState } from '../../core/learning/learning-state.ts'
import { trainBanner } from './train-banner.ts'

const learning = { ...initialLearningState(), phase: 'collecting' as const }

describe('the Train view banner', () => {
  it('says nothing while learning runs as it should', () => {
    expect(trainBanner(learning)).toBeNull()
  })

  it('reads as normal for a peer whose rewards wait for its registration', () => {
    const banner = trainBanner({
      ...learning,
      message: 'The reward for round 3 is queued: this peer is not registered to the wallet; register it…',
      rewardsWaitForRegistration: true,
    })
    expect(banner).toMatchObject({ tone: 'good', title: 'Learning; rewards wait for registration' })
    expect(banner?.detail).toContain('register it')
  })

  it('warns when learning goes on without saving, even while rewards wait for registration', () => {
    const banner = trainBanner({
      ...learning,
      message: 'The reward for round 3 is queued: this peer is not registered to the wallet.',
      degraded: { history: 'Your browser’s storage is full: round history is no longer saved.' },
      rewardsWaitForRegistration: true,
    })
    expect(banner).toMatchObject({ tone: 'warn', title: 'Learning, degraded' })
    expect(banner?.detail).toMatch(/^Your browser’s storage is full.*not registered/)
  })

  it('warns for any other sentence, such as a chain that does not answer', () => {
    const banner = trainBanner({
      ...learning,
      message: 'The reward for round 3 is queued: the chain at /rpc is not answering.',
    })
    expect(banner).toMatchObject({ tone: 'warn', title: 'Learning, degraded' })
  })

  it('tells a stopped loop and a swarm that does not learn', () => {
    expect(trainBanner({ ...learning, phase: 'error', message: 'boom' })).toMatchObject({
      tone: 'bad',
      detail: 'boom',
    })
    expect(trainBanner({ ...learning, phase: 'off' })?.title).toBe('This swarm does not learn')
  })
})
