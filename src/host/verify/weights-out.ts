// The weights a training step produced, read off the list of received receipts. A receipt names only
// the weights its work read (weightsHash); the weights it wrote are in its side file. But the peer's next
// step reads them, and that step's receipt is chained to this one: its chainTip extends this chainTip by
// its own step digest. So the next link's weightsHash is this step's output, as the peer claims it
// (re-execution is what proves it).
import { receiptKey, type ReceivedReceipt } from '../stores/received-receipts-store.ts'
import { extend, stepDigest } from '../../core/protocol/hash-chain.ts'
import { extendsChain } from '../../core/protocol/receipt-schema.ts'

const position = (peerId: string, length: number) => `${peerId} ${length}`

/** Per listed receipt (by receiptKey), the weights its step wrote, where the peer's next link is listed too. */
export function weightsOut(list: readonly ReceivedReceipt[]): Map<string, string> {
  const byPosition = new Map<string, ReceivedReceipt[]>()
  for (const entry of list) {
    const { peerId, chainLength } = entry.receipt
    const key = position(peerId, chainLength)
    byPosition.set(key, [...(byPosition.get(key) ?? []), entry])
  }
  const out = new Map<string, string>()
  for (const { receipt } of list) {
    if (!extendsChain(receipt.kind)) continue
    const from = { tip: receipt.chainTip, length: receipt.chainLength }
    const next = byPosition
      .get(position(receipt.peerId, receipt.chainLength + 1))
      ?.find(({ receipt: n }) => extendsChain(n.kind) && extend(from, stepDigest(n)).tip === n.chainTip)
    if (next) out.set(receiptKey(receipt), next.receipt.weightsHash)
  }
  return out
}
