import { describe, expect, it } from 'vitest'
import type { InputsFile } from '../../core/protocol/inputs-file.ts'
import type { Receipt } from '../../core/protocol/receipt-schema.ts'
import {
  addReceived,
  OWN_INPUTS_KEPT,
  RECEIVED_RECEIPTS_LIMIT,
  receiptKey,
  withVerdict,
  type ReceivedReceipt,
} from './received-receipts-store.ts'

// the pure folds read only who sent a receipt and its hash
const entry = (peerId: string, receiptHash: string, receivedAt = 0): ReceivedReceipt => ({
  receipt: { peerId, receiptHash } as Receipt,
  inputs: undefined,
  ours: false,
  round: 1,
  receivedAt,
  verdict: undefined,
})

describe('received receipts', () => {
  it('lists the newest first and keeps the last RECEIVED_RECEIPTS_LIMIT', () => {
    let list: readonly ReceivedReceipt[] = []
    for (let i = 0; i < RECEIVED_RECEIPTS_LIMIT + 5; i++) list = addReceived(list, entry('A', `h${i}`, i))
    expect(list).toHaveLength(RECEIVED_RECEIPTS_LIMIT)
    expect(list[0]!.receivedAt).toBe(RECEIVED_RECEIPTS_LIMIT + 4)
    expect(list.at(-1)!.receivedAt).toBe(5)
  })

  it('keeps the side files of our OWN_INPUTS_KEPT newest receipts only, and every received one', () => {
    const side = {} as InputsFile
    let list: readonly ReceivedReceipt[] = [{ ...entry('B', 'theirs'), inputs: side }]
    for (let i = 0; i < OWN_INPUTS_KEPT + 2; i++)
      list = addReceived(list, { ...entry('A', `own${i}`, i), ours: true, inputs: side })
    const kept = list.filter((r) => r.inputs).map((r) => r.receipt.receiptHash)
    expect(kept).toEqual([
      ...Array.from({ length: OWN_INPUTS_KEPT }, (_, i) => `own${OWN_INPUTS_KEPT + 1 - i}`),
      'theirs',
    ])
  })

  it("lists a receipt once, but another peer's receipt claiming the same hash still shows", () => {
    const first = addReceived([], entry('A', 'h', 1))
    expect(addReceived(first, entry('A', 'h', 2))).toBe(first)
    const both = addReceived(first, entry('B', 'h', 3))
    expect(both.map((r) => r.receipt.peerId)).toEqual(['B', 'A'])
  })

  it('sets a verdict on that receipt only, and none on one the cap dropped', () => {
    const list = [entry('A', 'h1'), entry('A', 'h2')]
    const bad = { ok: false, field: 'signature', message: 'not signed' } as const
    const judged = withVerdict(list, receiptKey({ peerId: 'A', receiptHash: 'h2' }), bad)
    expect(judged.map((r) => r.verdict)).toEqual([undefined, bad])
    expect(withVerdict(list, receiptKey({ peerId: 'A', receiptHash: 'gone' }), bad)).toEqual(list)
  })
})
