import { describe, expect, it } from 'vitest'
import { roundRow } from '../../../test-support/train/round-row-fixture.ts'
import { lastRunRound, roundSignalNote, signalShare } from './round-signal.ts'

describe('roundSignalNote', () => {
  it('says in words when no trained group carried a signal', () => {
    const note = roundSignalNote(roundRow(7, { trainedOn: { local: 2, external: 2, informative: 0 } }))
    expect(note).toEqual({
      text: "Round 7: no group's rewards differed: nothing to learn this round.",
      empty: true,
    })
  })

  it('counts the groups with a signal otherwise', () => {
    expect(roundSignalNote(roundRow(3))).toEqual({
      text: 'Round 3: 3 of 4 groups had a signal (rewards differed).',
      empty: false,
    })
    expect(
      roundSignalNote(roundRow(4, { trainedOn: { local: 0, external: 0, informative: 0 } }))?.empty,
    ).toBe(true)
  })

  it('says nothing for a skipped round or a row saved before signals were counted', () => {
    expect(roundSignalNote(roundRow(1, { skipped: 'tab was reloaded' }))).toBeUndefined()
    expect(roundSignalNote(roundRow(2, { trainedOn: { local: 2, external: 2 } }))).toBeUndefined()
  })

  it('speaks of the newest round that ran, past skipped ones', () => {
    const rows = [roundRow(1), roundRow(2), roundRow(3, { skipped: 'joined late' })]
    expect(lastRunRound(rows)?.round).toBe(2)
    expect(lastRunRound([roundRow(4, { skipped: 'joined late' })])).toBeUndefined()
  })
})

describe('signalShare', () => {
  it('counts the rounds that ran and those where some trained group had a signal', () => {
    const rows = [
      roundRow(1),
      roundRow(2, { trainedOn: { local: 2, external: 2, informative: 0 } }),
      roundRow(3, { trainedOn: { local: 0, external: 0, informative: 0 } }),
      roundRow(4, { skipped: 'joined late' }),
      // saved before signals were counted: neither
      roundRow(5, { trainedOn: { local: 2, external: 2 } }),
      roundRow(6, { trainedOn: { local: 1, external: 0, informative: 1 } }),
    ]
    expect(signalShare(rows)).toEqual({ withSignal: 2, rounds: 4 })
    expect(signalShare([])).toEqual({ withSignal: 0, rounds: 0 })
  })
})
