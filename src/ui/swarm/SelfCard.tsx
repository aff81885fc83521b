// "This peer": who this tab is in the swarm, and its identity backup / import.
import { useRef, useState, type DragEvent } from 'react'
import { Card } from '../common/Card.tsx'
import { CopyButton } from '../common/CopyButton.tsx'
import { useAppControls } from '../use-controls.ts'
import { useNetStore, useSwarmStore } from '../stores.ts'

type Op =
  | { kind: 'idle' }
  | { kind: 'busy'; what: string }
  | { kind: 'done'; message: string }
  | { kind: 'error'; message: string }

const errorMessage = (err: unknown): string =>
  err instanceof Error ? err.message : typeof err === 'string' ? err : 'Something went wrong; try again.'

export function SelfCard() {
  const self = useSwarmStore((s) => s.self)
  const topology = useNetStore((s) => s.topology)
  const controls = useAppControls()
  const [backup, setBackup] = useState<Op>({ kind: 'idle' })
  const [imported, setImported] = useState<Op>({ kind: 'idle' })
  const [dragging, setDragging] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  const peerId = self?.peerId ?? topology?.peerId ?? null
  const addrs = topology?.addrs ?? []

  const runBackup = async () => {
    if (!controls) return
    setBackup({ kind: 'busy', what: 'Saving…' })
    try {
      await controls.exportIdentity()
      setBackup({ kind: 'done', message: 'Backup saved. Keep it private: it is this peer’s key.' })
    } catch (err) {
      setBackup({ kind: 'error', message: errorMessage(err) })
    }
  }

  const runImport = async (file: File | undefined) => {
    if (!file || !controls) return
    setImported({ kind: 'busy', what: `Importing ${file.name}…` })
    try {
      await controls.importIdentity(file)
      setImported({ kind: 'done', message: `Imported ${file.name}.` })
    } catch (err) {
      setImported({ kind: 'error', message: errorMessage(err) })
    } finally {
      if (input.current) input.current.value = ''
    }
  }

  const onDragOver = (e: DragEvent) => {
    if (!controls || !e.dataTransfer.types.includes('Files')) return
    e.preventDefault()
    e.dataTransfer.dropEffect = 'copy'
    setDragging(true)
  }
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setDragging(false)
    void runImport(e.dataTransfer.files[0])
  }

  return (
    <Card
      title="This peer"
      className={`self-card ${dragging ? 'dragging' : ''}`}
      testId="self-card"
      onDragOver={onDragOver}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false)
      }}
      onDrop={onDrop}
    >
      <div className="self-body">
        <div className="self-name" data-testid="self-name">
          {self?.name ?? <span className="muted">starting…</span>}
        </div>
        <dl className="kv">
          <dt>Peer id</dt>
          <dd className="id-line">
            <code className="peer-id" data-testid="self-peer-id">
              {peerId ?? '—'}
            </code>
            {peerId && <CopyButton text={peerId} testId="copy-peer-id" />}
          </dd>
          <dt>Addresses</dt>
          <dd>
            {addrs.length === 0 ? (
              <span className="muted">none yet</span>
            ) : (
              <ul className="addr-list" data-testid="self-addrs">
                {addrs.map((a) => (
                  <li key={a}>
                    <code title={a}>{a}</code>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
        <div className="identity-actions">
          <button
            type="button"
            className="btn"
            disabled={!controls || backup.kind === 'busy'}
            onClick={() => void runBackup()}
            title="Download this peer's key so you can restore it in another browser"
          >
            {backup.kind === 'busy' ? backup.what : 'Backup identity'}
          </button>
          <label className={`btn ${!controls || imported.kind === 'busy' ? 'disabled' : ''}`}>
            {imported.kind === 'busy' ? imported.what : 'Import identity…'}
            <input
              ref={input}
              type="file"
              className="visually-hidden"
              accept=".json,.pem,application/json,application/x-pem-file"
              data-testid="import-input"
              disabled={!controls || imported.kind === 'busy'}
              onChange={(e) => void runImport(e.target.files?.[0])}
            />
          </label>
          <span className="hint">or drop a backup (.json) or swarm.pem here</span>
        </div>
        {backup.kind === 'error' && (
          <p className="inline-error" role="alert" data-testid="backup-error">
            Backup failed: {backup.message}
          </p>
        )}
        {backup.kind === 'done' && <p className="inline-ok">{backup.message}</p>}
        {imported.kind === 'error' && (
          <p className="inline-error" role="alert" data-testid="import-error">
            {imported.message}
          </p>
        )}
        {imported.kind === 'done' && (
          <p className="inline-ok" data-testid="import-done">
            {imported.message}
          </p>
        )}
      </div>
    </Card>
  )
}
