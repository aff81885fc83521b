// Lists a receipt heard on the receipts topic (or published by this tab) in the received-receipts store
// at once, then checks it from the receipt alone and records the verdict when it is in.
import {
  addReceived,
  receiptKey,
  withVerdict,
  receivedReceiptsStore,
} from '../stores/received-receipts-store.ts'
import type { InputsFile } from '../../core/protocol/inputs-file.ts'
import { fail, validate, type Verdict } from '../../core/protocol/receipt.ts'
import type { Receipt } from '../../core/protocol/receipt-schema.ts'

export interface ReceiptArrival {
  round: number
  ours: boolean
  inputs?: InputsFile
  /** ms since epoch; Date.now() unless a test sets it */
  receivedAt?: number
}

/** Resolves once the verdict is recorded. */
export async function recordReceipt(receipt: Receipt, arrival: ReceiptArrival): Promise<void> {
  const store = receivedReceiptsStore
  const entry = {
    receipt,
    inputs: arrival.inputs,
    ours: arrival.ours,
    round: arrival.round,
    receivedAt: arrival.receivedAt ?? Date.now(),
    verdict: undefined,
  }
  store.setState((s) => ({ receipts: addReceived(s.receipts, entry) }))
  const verdict: Verdict = await validate(receipt).catch((err: unknown) =>
    fail('receipt', `the receipt could not be checked: ${err instanceof Error ? err.message : String(err)}`),
  )
  store.setState((s) => ({ receipts: withVerdict(s.receipts, receiptKey(receipt), verdict) }))
}
