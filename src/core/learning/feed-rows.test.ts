import { describe, expect, it } from 'vitest'
import { feedRows } from './feed-rows.ts'
import type { HeardRollout } from './learning-state.ts'

const row = (from: string, reward: number | undefined): HeardRollout => ({
  from,
  name: from,
  round: 1,
  family: 'arithmetic',
  prompt: '',
  answer: '',
  claimedReward: 1,
  reward,
  ...(reward === undefined && { refused: 'forged' }),
  receivedAt: 0,
})

describe('feedRows', () => {
  it('keeps accepted completions before refused ones, in the order they were judged', () => {
    const feed = feedRows(4)
    feed.add([row('x1', undefined), row('x1', undefined)])
    feed.add([row('a', 1), row('a', 0)])
    feed.add([row('x2', undefined), row('x2', undefined)])
    feed.add([row('b', 1)])
    // 3 accepted, then one refused: the first one judged
    expect(feed.take().map((r) => r.from)).toEqual(['x1', 'a', 'a', 'b'])
  })

  it('shows refusals when nothing else came, never more than the limit', () => {
    const feed = feedRows(3)
    for (let k = 0; k < 10; k++) feed.add([row(`x${k}`, undefined)])
    expect(feed.take().map((r) => r.from)).toEqual(['x0', 'x1', 'x2'])
    const accepted = feedRows(2)
    for (let k = 0; k < 5; k++) accepted.add([row(`p${k}`, 0.5)])
    expect(accepted.take().map((r) => r.from)).toEqual(['p0', 'p1'])
    expect(feedRows(2).take()).toEqual([])
  })
})
