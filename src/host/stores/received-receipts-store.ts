// The training receipts this tab has seen on the receipts topic since it opened (others' as gossip
// delivered them, ours as published), each with `validate`'s verdict once it is in. Written by the tab's
// wiring (src/host/verify/record-receipt.ts); read by the Verify view. Kept in memory only: a reload
// starts the list over.
import { createStore } from 'zustand/vanilla'
import type { InputsFile } from '../../core/protocol/inputs-file.ts'
import type { Verdict } from '../../core/protocol/receipt.ts'
import type { Receipt } from '../../core/protocol/receipt-schema.ts'

/**
 * Receipts kept, newest first. A receipt is a few KB; one whose side file travelled with it (small
 * models only: a message is capped at 64 KiB) holds up to 64 KiB, so the list stays under ~13 MB.
 */
export const RECEIVED_RECEIPTS_LIMIT = 200
/**
 * Our own newest receipts that keep their side file (weights, optimizer state and batch: ~2 MB each
 * for the shipped model), so the Verify view can re-execute this tab's latest steps; older ones keep
 * the receipt only.
 */
export const OWN_INPUTS_KEPT = 4

export interface ReceivedReceipt {
  readonly receipt: Receipt
  /** the side file, when it fitted the message alongside the receipt */
  readonly inputs: InputsFile | undefined
  /** published by this tab */
  readonly ours: boolean
  /** the round the message was sent in */
  readonly round: number
  /** ms since epoch */
  readonly receivedAt: number
  /** `validate`'s verdict on the receipt alone; undefined while it runs */
  readonly verdict: Verdict | undefined
}

/**
 * Identifies a receipt in the list. The peer id is part of it because receiptHash is only a field
 * until validated: a peer copying someone else's hash into its own receipt must not hide theirs.
 */
export const receiptKey = (receipt: Pick<Receipt, 'peerId' | 'receiptHash'>): string =>
  `${receipt.peerId} ${receipt.receiptHash}`

/**
 * `list` with `entry` first, capped, our side files beyond the OWN_INPUTS_KEPT newest dropped;
 * unchanged when the same receipt is already listed.
 */
export function addReceived(
  list: readonly ReceivedReceipt[],
  entry: ReceivedReceipt,
): readonly ReceivedReceipt[] {
  const key = receiptKey(entry.receipt)
  if (list.some((r) => receiptKey(r.receipt) === key)) return list
  let own = 0
  return [entry, ...list]
    .slice(0, RECEIVED_RECEIPTS_LIMIT)
    .map((r) => (r.ours && r.inputs && ++own > OWN_INPUTS_KEPT ? { ...r, inputs: undefined } : r))
}

/** `list` with the verdict of the receipt under `key` set (it may have been dropped by the cap meanwhile). */
export function withVerdict(
  list: readonly ReceivedReceipt[],
  key: string,
  verdict: Verdict,
): readonly ReceivedReceipt[] {
  return list.map((r) => (receiptKey(r.receipt) === key ? { ...r, verdict } : r))
}

export interface ReceivedReceiptsState {
  receipts: readonly ReceivedReceipt[]
}

export const receivedReceiptsStore = createStore<ReceivedReceiptsState>()(() => ({ receipts: [] }))
