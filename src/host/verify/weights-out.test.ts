import { generateKeyPair } from '@libp2p/crypto/keys'
import { describe, expect, it } from 'vitest'
import { receiptKey, type ReceivedReceipt } from '../stores/received-receipts-store.ts'
import type { Receipt } from '../../core/protocol/receipt-schema.ts'
import { chainedReceipts, weightsAt } from '../../../test-support/verify/test-receipts.ts'
import { weightsOut } from './weights-out.ts'

const listed = (receipt: Receipt): ReceivedReceipt => ({
  receipt,
  inputs: undefined,
  ours: false,
  round: receipt.chainLength,
  receivedAt: 0,
  verdict: undefined,
})

const key = await generateKeyPair('Ed25519')
const other = await generateKeyPair('Ed25519')

describe('weightsOut', () => {
  it("names a step's output weights by the peer's next link, newest first or not", async () => {
    const [a, b, c] = await chainedReceipts(key, 3)
    const out = weightsOut([c!, a!, b!].map(listed))
    expect(out.get(receiptKey(a!))).toBe(weightsAt(1))
    expect(out.get(receiptKey(b!))).toBe(weightsAt(2))
    // the newest step's output is not known from receipts yet
    expect(out.has(receiptKey(c!))).toBe(false)
  })

  it("ignores a next step that does not extend this chain tip, and other peers' steps", async () => {
    const [a] = await chainedReceipts(key, 1)
    // the same peer's second step on another chain, and another peer's second step on this one
    const [, unlinked] = await chainedReceipts(key, 2, 0x2000)
    const [, othersNext] = await chainedReceipts(other, 2)
    expect(unlinked!.chainLength).toBe(a!.chainLength + 1)
    expect(weightsOut([a!, unlinked!, othersNext!].map(listed)).size).toBe(0)
  })
})
