import { describe, expect, it } from 'vitest'
import { emptySlots, slotCandidates } from './slot-choice.ts'

const first = (it: Iterable<number>, n: number): number[] => {
  const out: number[] = []
  for (const x of it) {
    if (out.length === n) break
    out.push(x)
  }
  return out
}

describe('slotCandidates', () => {
  it('tries the remembered slot, then stored slots lowest first, then empty slots', () => {
    expect(first(slotCandidates([4, 1, 2], 2), 7)).toEqual([2, 1, 4, 0, 3, 5, 6])
  })

  it('starts at slot 0 on a first visit', () => {
    expect(first(slotCandidates([], null), 3)).toEqual([0, 1, 2])
  })

  it('tries a remembered slot that has no key yet only once', () => {
    expect(first(slotCandidates([0], 3), 5)).toEqual([3, 0, 1, 2, 4])
  })
})

describe('emptySlots', () => {
  it('skips stored slots', () => {
    expect(first(emptySlots([0, 2, 3]), 3)).toEqual([1, 4, 5])
  })
})
