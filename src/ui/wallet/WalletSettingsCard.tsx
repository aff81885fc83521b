// Wallet settings: automatic swarm submissions with the burner (off by default) and the RPC URL of
// each network. Saved in this browser.
import { useState } from 'react'
import { rpcUrlProblem, type NetworkInfo } from '../../host/chain/chains.ts'
import { Card } from '../common/Card.tsx'
import { useWalletControls } from '../use-controls.ts'
import { useWalletSettings, useWalletStore } from '../stores.ts'

export function WalletSettingsCard() {
  const controls = useWalletControls()
  const networks = useWalletStore((s) => s.networks)
  const autoApprove = useWalletSettings((s) => s.autoApproveSwarm)
  return (
    <Card title="Wallet settings" testId="wallet-settings-card">
      <label className="check">
        <input
          type="checkbox"
          data-testid="auto-approve-swarm"
          checked={autoApprove}
          disabled={!controls}
          onChange={(e) => controls?.setAutoApproveSwarm(e.target.checked)}
        />
        <span>
          Let the burner send routine swarm submissions (rewards, votes) without asking.
          <span className="hint-block">Trades always ask for confirmation.</span>
        </span>
      </label>
      <h3>RPC URLs</h3>
      {networks.map((n) => (
        <RpcRow key={n.id} network={n} />
      ))}
    </Card>
  )
}

function RpcRow({ network }: { network: NetworkInfo }) {
  const controls = useWalletControls()
  const saved = useWalletSettings((s) => s.rpcOverrides[network.id] ?? '')
  const [value, setValue] = useState(saved)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const problem = rpcUrlProblem(value)
  const save = async () => {
    if (!controls) return
    setBusy(true)
    setError(null)
    try {
      await controls.setRpcOverride(network.id, value)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form
      className="form-row rpc-row"
      aria-label={`${network.name} RPC`}
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <label className="field grow">
        <span>
          {network.name} <span className="muted">({network.id})</span>
        </span>
        <input
          className="input"
          value={value}
          placeholder={network.defaultRpcUrl}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <button
        type="submit"
        className="btn"
        disabled={!controls || busy || problem !== null || value.trim() === saved}
      >
        {value.trim() === '' && saved !== '' ? 'Use default' : 'Save'}
      </button>
      {(problem ?? error) && <p className="inline-error">{problem ?? error}</p>}
    </form>
  )
}
