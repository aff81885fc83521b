// The training receipts heard on the receipts topic since this tab opened (and this tab's own), newest
// first, each checked from the receipt alone; a row opens its receipt in the Verify panel above.
import { useMemo } from 'react'
import { animalName } from '../../core/identity/animal.ts'
import {
  RECEIVED_RECEIPTS_LIMIT,
  receiptKey,
  type ReceivedReceipt,
} from '../../host/stores/received-receipts-store.ts'
import { Card } from '../common/Card.tsx'
import { CountTitle } from '../common/CountTitle.tsx'
import { RelativeTime } from '../common/RelativeTime.tsx'
import { hashPrefix, shortHash } from '../../host/verify/verify-files.ts'
import { weightsOut } from '../../host/verify/weights-out.ts'
import { TableScroll } from '../common/TableScroll.tsx'
import { useReceivedReceiptsStore } from '../stores.ts'

function VerdictCell({ entry }: { entry: ReceivedReceipt }) {
  const { verdict } = entry
  if (!verdict)
    return (
      <td className="muted" data-testid="received-verdict" data-ok="">
        checking…
      </td>
    )
  if (verdict.ok)
    return (
      <td className="text-good" data-testid="received-verdict" data-ok="true">
        ✓ valid
      </td>
    )
  return (
    <td className="text-bad" data-testid="received-verdict" data-ok="false" title={verdict.message}>
      ✗ invalid: <code data-testid="received-verdict-field">{verdict.field}</code>
    </td>
  )
}

function Row({
  entry,
  out,
  onOpen,
}: {
  entry: ReceivedReceipt
  out: string | undefined
  onOpen: () => void
}) {
  const { receipt } = entry
  return (
    <tr
      className="clickable"
      data-testid="received-row"
      data-peer={receipt.peerId}
      data-receipt={receipt.receiptHash}
      data-ours={entry.ours}
      tabIndex={0}
      title="Open this receipt in the Verify panel"
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault()
          onOpen()
        }
      }}
    >
      <td className="peer-name">
        <span data-testid="received-peer-name">{animalName(receipt.peerId)}</span>
        {entry.ours && <span className="tag">ours</span>}
        <span className="sub">
          <code title={receipt.peerId}>{shortHash(receipt.peerId)}</code>
        </span>
      </td>
      <VerdictCell entry={entry} />
      <td>{receipt.kind}</td>
      <td className="num">
        {entry.round} <span className="muted">/ {receipt.chainLength}</span>
      </td>
      <td>
        <code title={receipt.chainTip}>{hashPrefix(receipt.chainTip)}</code>
      </td>
      <td className="received-weights">
        <code title={receipt.weightsHash} data-testid="received-weights-in">
          {hashPrefix(receipt.weightsHash)}
        </code>{' '}
        →{' '}
        {out ? (
          <code title={out} data-testid="received-weights-out">
            {hashPrefix(out)}
          </code>
        ) : (
          <span className="muted" title="known once the peer's next step arrives">
            …
          </span>
        )}
      </td>
      <td className="muted">
        <RelativeTime at={entry.receivedAt} />
      </td>
    </tr>
  )
}

export function ReceivedReceipts({ onOpen }: { onOpen: (entry: ReceivedReceipt) => void }) {
  const receipts = useReceivedReceiptsStore((s) => s.receipts)
  const outs = useMemo(() => weightsOut(receipts), [receipts])
  return (
    <Card
      title={<CountTitle label="Received receipts" count={receipts.length} testId="received-count" />}
      testId="received-receipts"
    >
      <p className="card-lead">
        Training receipts the swarm's peers published since this tab opened, and ours, newest first (the last{' '}
        {RECEIVED_RECEIPTS_LIMIT} are kept). Each is checked from the receipt alone; open one to download it,
        or to re-execute it with its inputs file.
      </p>
      <TableScroll label="Received receipts" className="received-scroll">
        <table className="table received-table">
          <thead>
            <tr>
              <th>Peer</th>
              <th>Verdict</th>
              <th>Kind</th>
              <th className="num" title="the round it was published in / its training chain length">
                Round / chain
              </th>
              <th>Chain tip</th>
              <th title="the weights the step read → the weights it wrote (named by the peer's next step)">
                Weights in → out
              </th>
              <th>Received</th>
            </tr>
          </thead>
          <tbody>
            {receipts.length === 0 ? (
              <tr className="empty-row">
                <td colSpan={7}>Receipts appear here as peers publish their training steps.</td>
              </tr>
            ) : (
              receipts.map((entry) => {
                const key = receiptKey(entry.receipt)
                return <Row key={key} entry={entry} out={outs.get(key)} onOpen={() => onOpen(entry)} />
              })
            )}
          </tbody>
        </table>
      </TableScroll>
    </Card>
  )
}
