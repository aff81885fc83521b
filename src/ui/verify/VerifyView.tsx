// The Verify view: drop a receipt (and its inputs side file) or pick one the swarm published, see its
// key fields, validate it from the file alone at once, download it, and re-execute its work on the TS
// twin to compare every hash and name the first divergent op (docs/receipts.md).
import { useRef, useState } from 'react'
import { useDropZone } from '../common/use-drop-zone.ts'
import { animalName } from '../../core/identity/animal.ts'
import type { ReceivedReceipt } from '../../host/stores/received-receipts-store.ts'
import { defaultInputsPath } from '../../core/protocol/inputs-file.ts'
import { BUNDLED_KERNELS_HASH } from '../../compute/proof/kernels-hash-bundled.ts'
import { validate, type Verdict } from '../../core/protocol/receipt.ts'
import { verify, type VerifyVerdict } from '../../compute/proof/verify.ts'
import { Card } from '../common/Card.tsx'
import { downloadFile } from '../../host/download-file.ts'
import { ReceivedReceipts } from './ReceivedReceipts.tsx'
import {
  divergenceOf,
  looksLikeInputs,
  readJsonFile,
  receiptFields,
  receivedFileName,
  shortHash,
  type Loaded,
} from '../../host/verify/verify-files.ts'
import './verify.css'

type Check<V> =
  { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; verdict: V } | { kind: 'error'; message: string }

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** Lets React paint the busy state before the (synchronous, CPU-bound) re-execution starts. */
const nextFrame = () => new Promise<void>((resolve) => setTimeout(resolve, 20))

function FilePicker({
  label,
  testId,
  loaded,
  onFile,
}: {
  label: string
  testId: string
  loaded: Loaded | null
  onFile: (file: File) => void
}) {
  return (
    <div className="verify-picker">
      <label className="btn">
        {label}
        <input
          type="file"
          className="visually-hidden"
          accept=".json,application/json"
          data-testid={testId}
          onChange={(e) => {
            const file = e.target.files?.[0]
            if (file) onFile(file)
            e.target.value = ''
          }}
        />
      </label>
      <span className="muted verify-file-name" data-testid={`${testId}-name`}>
        {loaded ? loaded.name : 'none'}
      </span>
    </div>
  )
}

function VerdictLine({ verdict, okText, testId }: { verdict: Verdict; okText: string; testId: string }) {
  if (verdict.ok)
    return (
      <p className="verify-verdict verdict-ok" data-testid={testId} data-ok="true">
        ✓ {okText}
      </p>
    )
  return (
    <div className="verify-verdict verdict-bad" data-testid={testId} data-ok="false" role="alert">
      <div>
        ✗ {okText === 'valid' ? 'invalid' : 'mismatch'}:{' '}
        <code data-testid={`${testId}-field`}>{verdict.field}</code>
      </div>
      <div className="verify-message" data-testid={`${testId}-message`}>
        {verdict.message}
      </div>
    </div>
  )
}

export function VerifyView() {
  const [receipt, setReceipt] = useState<Loaded | null>(null)
  const [inputs, setInputs] = useState<Loaded | null>(null)
  const [validity, setValidity] = useState<Check<Verdict>>({ kind: 'idle' })
  const [rerun, setRerun] = useState<Check<VerifyVerdict>>({ kind: 'idle' })
  const generation = useRef(0) // bumped by a new receipt
  const picks = useRef(0) // bumped by either file

  // validate at once, whenever the receipt changes; a stale result never overwrites a newer one
  const takeReceipt = (loaded: Loaded) => {
    const run = ++generation.current
    ++picks.current
    setReceipt(loaded)
    setRerun({ kind: 'idle' })
    if ('error' in loaded) {
      setValidity({ kind: 'idle' })
      return
    }
    setValidity({ kind: 'busy' })
    validate(loaded.value).then(
      (verdict) => run === generation.current && setValidity({ kind: 'done', verdict }),
      (err: unknown) => run === generation.current && setValidity({ kind: 'error', message: errorText(err) }),
    )
  }

  const takeInputs = (loaded: Loaded) => {
    ++picks.current
    setInputs(loaded)
    setRerun({ kind: 'idle' })
  }

  const load = async (files: readonly File[]) => {
    const read = await Promise.all(files.map(readJsonFile))
    for (const file of read) {
      if ('value' in file && looksLikeInputs(file.value)) takeInputs(file)
      else takeReceipt(file)
    }
  }

  const drop = useDropZone((data) => void load(Array.from(data.files).slice(0, 2)))

  const receiptCard = useRef<HTMLDivElement>(null)
  // as if its file (and its side file, when that travelled with it) had been dropped
  const openReceived = (entry: ReceivedReceipt) => {
    const name = receivedFileName(entry.receipt)
    takeReceipt({ name, value: entry.receipt })
    if (entry.inputs) takeInputs({ name: defaultInputsPath(name), value: entry.inputs })
    requestAnimationFrame(() => receiptCard.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }))
  }

  const reexecute = async () => {
    if (!receipt || !('value' in receipt) || !inputs || !('value' in inputs)) return
    const run = picks.current
    setRerun({ kind: 'busy' })
    await nextFrame()
    try {
      const verdict = await verify(receipt.value, inputs.value, BUNDLED_KERNELS_HASH)
      if (run === picks.current) setRerun({ kind: 'done', verdict })
    } catch (err) {
      if (run === picks.current) setRerun({ kind: 'error', message: errorText(err) })
    }
  }

  const fields = receipt && 'value' in receipt ? receiptFields(receipt.value) : {}
  const canRerun = !!receipt && 'value' in receipt && !!inputs && 'value' in inputs && rerun.kind !== 'busy'
  const divergence = rerun.kind === 'done' ? divergenceOf(rerun.verdict) : undefined

  return (
    <div className="view verify-view">
      <Card
        title="Verify a receipt"
        testId="verify-card"
        className={`verify-drop ${drop.dragging ? 'dragging' : ''}`}
        {...drop.handlers}
      >
        <p className="card-lead">
          Drop a <code>.receipt.json</code> and, to re-execute it, its <code>.inputs.json</code> here, or
          choose them. Validation checks the file alone (schema, hashes, signature); re-execution runs the
          work again on the TS twin and compares every hash.
        </p>
        <div className="verify-pickers">
          <FilePicker
            label="Choose receipt…"
            testId="verify-receipt-file"
            loaded={receipt}
            onFile={(f) => void load([f])}
          />
          <FilePicker
            label="Choose inputs…"
            testId="verify-inputs-file"
            loaded={inputs}
            onFile={(f) => void readJsonFile(f).then(takeInputs)}
          />
        </div>
        {receipt && 'error' in receipt && (
          <p className="inline-error" role="alert" data-testid="verify-file-error">
            {receipt.error}
          </p>
        )}
        {inputs && 'error' in inputs && (
          <p className="inline-error" role="alert" data-testid="verify-inputs-error">
            {inputs.error}
          </p>
        )}
      </Card>

      {receipt && 'value' in receipt && (
        <div ref={receiptCard} className="verify-receipt-anchor">
          <Card
            title="Receipt"
            testId="verify-receipt"
            aside={
              <button
                type="button"
                className="btn"
                data-testid="verify-download"
                onClick={() => downloadFile(receipt.name, JSON.stringify(receipt.value, null, 2) + '\n')}
              >
                Download
              </button>
            }
          >
            <dl className="kv verify-kv">
              <dt>Kind</dt>
              <dd data-testid="verify-kind">{fields.kind ?? '—'}</dd>
              <dt>Model</dt>
              <dd data-testid="verify-model">{fields.modelId ?? '—'}</dd>
              <dt>Peer</dt>
              <dd>
                {fields.peerId ? (
                  <>
                    <span className="verify-animal" data-testid="verify-peer-name">
                      {animalName(fields.peerId)}
                    </span>{' '}
                    <code className="muted" title={fields.peerId} data-testid="verify-peer-id">
                      {shortHash(fields.peerId)}
                    </code>
                  </>
                ) : (
                  '—'
                )}
              </dd>
              {(
                [
                  ['Receipt hash', 'receiptHash'],
                  ['Weights', 'weightsHash'],
                  ['Kernels', 'kernelsHash'],
                  ['Inputs', 'inputHash'],
                  ['Outputs', 'outputHash'],
                  ['Trace root', 'traceRoot'],
                  ['Chain', 'chainTip'],
                ] as const
              ).map(([label, key]) => (
                <div className="verify-kv-row" key={key}>
                  <dt>{label}</dt>
                  <dd>
                    <code title={fields[key]}>{shortHash(fields[key])}</code>
                    {key === 'chainTip' && fields.chainLength !== undefined && (
                      <span className="muted"> at length {fields.chainLength}</span>
                    )}
                  </dd>
                </div>
              ))}
            </dl>

            <h3>Validity</h3>
            {validity.kind === 'busy' && <p className="muted">Checking…</p>}
            {validity.kind === 'error' && (
              <p className="inline-error" role="alert" data-testid="verify-validity-error">
                {validity.message}
              </p>
            )}
            {validity.kind === 'done' && (
              <VerdictLine verdict={validity.verdict} okText="valid" testId="verify-validity" />
            )}

            <h3>Re-execution</h3>
            <div className="button-row">
              <button
                type="button"
                className="btn btn-primary"
                data-testid="verify-rerun"
                disabled={!canRerun}
                onClick={() => void reexecute()}
              >
                {rerun.kind === 'busy' ? 'Re-executing…' : 'Re-execute'}
              </button>
              {!inputs && <span className="hint-inline">choose the inputs file to re-execute</span>}
            </div>
            {rerun.kind === 'error' && (
              <p className="inline-error" role="alert" data-testid="verify-rerun-error">
                {rerun.message}
              </p>
            )}
            {rerun.kind === 'done' && (
              <>
                <VerdictLine verdict={rerun.verdict} okText="match" testId="verify-rerun-verdict" />
                {divergence && (
                  <p className="verify-divergence" data-testid="verify-divergence">
                    First divergent op:{' '}
                    <strong data-testid="verify-divergence-index">#{divergence.index}</strong>{' '}
                    <code data-testid="verify-divergence-op">{divergence.op}</code>
                  </p>
                )}
              </>
            )}
          </Card>
        </div>
      )}

      <ReceivedReceipts onOpen={openReceived} />
    </div>
  )
}
