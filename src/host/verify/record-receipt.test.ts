import { generateKeyPair } from '@libp2p/crypto/keys'
import { beforeEach, describe, expect, it } from 'vitest'
import { receivedReceiptsStore } from '../stores/received-receipts-store.ts'
import { recordReceipt } from './record-receipt.ts'
import { chainedReceipts } from '../../../test-support/verify/test-receipts.ts'

const key = await generateKeyPair('Ed25519')
const [receipt] = await chainedReceipts(key, 1)

beforeEach(() => receivedReceiptsStore.setState({ receipts: [] }))

describe('recordReceipt', () => {
  it('lists a receipt at once and then shows it valid', async () => {
    const recording = recordReceipt(receipt!, { round: 7, ours: true, receivedAt: 123 })
    const [listed] = receivedReceiptsStore.getState().receipts
    expect(listed).toMatchObject({ receipt, round: 7, ours: true, receivedAt: 123, verdict: undefined })
    await recording
    expect(receivedReceiptsStore.getState().receipts.map((r) => r.verdict)).toEqual([{ ok: true }])
  })

  it('shows a receipt changed after signing as invalid, naming the field', async () => {
    await recordReceipt({ ...receipt!, outputHash: '0'.repeat(64) }, { round: 7, ours: false })
    const [listed] = receivedReceiptsStore.getState().receipts
    expect(listed!.verdict).toMatchObject({ ok: false, field: 'receiptHash' })
    expect(listed!.receivedAt).toBeGreaterThan(0)
  })
})
