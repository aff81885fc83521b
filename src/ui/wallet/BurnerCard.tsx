// The burner wallet's key: export it encrypted with a passphrase, import a backup (which replaces the
// key of every tab of this browser profile).
import { useRef, useState } from 'react'
import { MIN_PASSPHRASE_LENGTH, passphraseProblem } from '../../host/wallet/burner-backup.ts'
import { requestConfirmation } from '../../host/stores/confirm-store.ts'
import { Card } from '../common/Card.tsx'
import { useWalletControls } from '../use-controls.ts'
import { useWalletStore } from '../stores.ts'

type Op =
  { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; message: string } | { kind: 'error'; message: string }

const message = (err: unknown) => (err instanceof Error ? err.message : String(err))

export function BurnerCard() {
  const controls = useWalletControls()
  const address = useWalletStore((s) => (s.kind === 'burner' ? s.address : null))
  const [exportPass, setExportPass] = useState('')
  const [importPass, setImportPass] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [exported, setExported] = useState<Op>({ kind: 'idle' })
  const [imported, setImported] = useState<Op>({ kind: 'idle' })
  const input = useRef<HTMLInputElement>(null)

  const exportProblem = exportPass === '' ? null : passphraseProblem(exportPass)

  const runExport = async () => {
    if (!controls) return
    setExported({ kind: 'busy' })
    try {
      await controls.exportBurner(exportPass)
      setExportPass('')
      setExported({
        kind: 'done',
        message: 'Saved. Keep the file and the passphrase apart; either alone is useless.',
      })
    } catch (err) {
      setExported({ kind: 'error', message: message(err) })
    }
  }

  const runImport = async () => {
    if (!controls || !file) return
    const ok = await requestConfirmation({
      title: 'Replace the burner wallet?',
      details: address ? [{ label: 'Current burner', value: address }] : [],
      note: 'Every tab of this browser switches to the imported key. Export the current one first if it holds anything.',
      confirmLabel: 'Replace',
    })
    if (!ok) return
    setImported({ kind: 'busy' })
    try {
      await controls.importBurner(file, importPass)
      setImportPass('')
      setFile(null)
      if (input.current) input.current.value = ''
      setImported({ kind: 'done', message: `Imported ${file.name}.` })
    } catch (err) {
      setImported({ kind: 'error', message: message(err) })
    }
  }

  return (
    <Card title="Burner wallet key" testId="burner-card">
      <p className="card-lead">
        The burner is a key kept in this browser (every tab of this profile uses it). Back it up to move it or
        to keep what it holds.
      </p>
      <p className="card-lead" data-testid="burner-at-rest">
        At rest it is sealed with a key the browser will not export, so the profile's files alone do not
        reveal it; any script running on this site can still use it, so keep test funds only.
      </p>
      <form
        className="form-row"
        aria-label="Export the burner key"
        onSubmit={(e) => {
          e.preventDefault()
          void runExport()
        }}
      >
        <label className="field">
          <span>Passphrase</span>
          <input
            type="password"
            className="input"
            autoComplete="new-password"
            placeholder={`at least ${MIN_PASSPHRASE_LENGTH} characters`}
            value={exportPass}
            onChange={(e) => setExportPass(e.target.value)}
          />
        </label>
        <button
          type="submit"
          className="btn"
          disabled={!controls || exportPass === '' || exportProblem !== null || exported.kind === 'busy'}
        >
          {exported.kind === 'busy' ? 'Encrypting…' : 'Export encrypted key'}
        </button>
      </form>
      {exportProblem && <p className="hint">{exportProblem}</p>}
      {exported.kind === 'done' && <p className="inline-ok">{exported.message}</p>}
      {exported.kind === 'error' && (
        <p className="inline-error" role="alert" data-testid="burner-export-error">
          {exported.message}
        </p>
      )}

      <form
        className="form-row"
        aria-label="Import a burner key"
        onSubmit={(e) => {
          e.preventDefault()
          void runImport()
        }}
      >
        <label className={`btn ${!controls ? 'disabled' : ''}`}>
          {file ? file.name : 'Choose backup…'}
          <input
            ref={input}
            type="file"
            className="visually-hidden"
            accept=".json,application/json"
            data-testid="burner-import-file"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </label>
        <label className="field">
          <span>Passphrase</span>
          <input
            type="password"
            className="input"
            autoComplete="current-password"
            value={importPass}
            onChange={(e) => setImportPass(e.target.value)}
          />
        </label>
        <button
          type="submit"
          className="btn"
          disabled={!controls || !file || importPass === '' || imported.kind === 'busy'}
        >
          {imported.kind === 'busy' ? 'Decrypting…' : 'Import'}
        </button>
      </form>
      {imported.kind === 'done' && (
        <p className="inline-ok" data-testid="burner-import-done">
          {imported.message}
        </p>
      )}
      {imported.kind === 'error' && (
        <p className="inline-error" role="alert" data-testid="burner-import-error">
          {imported.message}
        </p>
      )}
    </Card>
  )
}
