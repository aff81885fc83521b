// How the Markets view reaches Delphi's networks: the API key (entered once, kept in this browser and
// sent only to Delphi's REST API as X-API-Key) and, per network, the REST API and subgraph URLs in
// place of the defaults (another provider, or a local stand-in). The chains' RPC URLs are in the
// wallet settings.
import { useState } from 'react'
import { DELPHI_NETWORKS, DELPHI_NETWORK_NAMES, type DelphiNetworkName } from '../../host/delphi/networks.ts'
import { delphiSettingsStore } from '../../host/stores/delphi-settings-store.ts'
import { Card } from '../common/Card.tsx'
import { marketSourceLabel, serviceUrlProblem } from '../../host/markets/market-source.ts'
import { useDelphiSettings } from '../stores.ts'

export function DelphiSettingsCard() {
  return (
    <Card title="Delphi" testId="delphi-settings-card">
      <ApiKeyRow />
      <h3>Service URLs</h3>
      {DELPHI_NETWORK_NAMES.map((name) => (
        <UrlRows key={name} name={name} />
      ))}
      <p className="hint">
        Empty fields use Delphi’s own services. The RPC URL of each chain is set in Wallet → Wallet settings.
      </p>
    </Card>
  )
}

function ApiKeyRow() {
  const saved = useDelphiSettings((s) => s.apiKey)
  const [value, setValue] = useState(saved)
  return (
    <form
      className="form-row"
      aria-label="Delphi API key"
      onSubmit={(e) => {
        e.preventDefault()
        delphiSettingsStore.setState({ apiKey: value.trim() })
      }}
    >
      <label className="field grow">
        <span>API key {saved ? <span className="muted">(saved)</span> : null}</span>
        <input
          className="input"
          type="password"
          autoComplete="off"
          value={value}
          placeholder="your Delphi API key"
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <button type="submit" className="btn" disabled={value.trim() === saved}>
        {value.trim() === '' && saved !== '' ? 'Forget' : 'Save'}
      </button>
    </form>
  )
}

function UrlRows({ name }: { name: DelphiNetworkName }) {
  const savedRest = useDelphiSettings((s) => s.restUrls[name] ?? '')
  const savedSubgraph = useDelphiSettings((s) => s.subgraphUrls[name] ?? '')
  const [rest, setRest] = useState(savedRest)
  const [subgraph, setSubgraph] = useState(savedSubgraph)
  const problem = serviceUrlProblem(rest) ?? serviceUrlProblem(subgraph)
  const unchanged = rest.trim() === savedRest && subgraph.trim() === savedSubgraph
  const save = () =>
    delphiSettingsStore.setState((s) => ({
      restUrls: { ...s.restUrls, [name]: rest.trim() || undefined },
      subgraphUrls: { ...s.subgraphUrls, [name]: subgraph.trim() || undefined },
    }))
  const defaults = DELPHI_NETWORKS[name]
  return (
    <form
      className="form-row delphi-url-row"
      aria-label={`${marketSourceLabel(name)} URLs`}
      onSubmit={(e) => {
        e.preventDefault()
        save()
      }}
    >
      <label className="field grow">
        <span>{marketSourceLabel(name)}: REST API</span>
        <input
          className="input"
          value={rest}
          placeholder={defaults.restUrl}
          onChange={(e) => setRest(e.target.value)}
        />
      </label>
      <label className="field grow">
        <span>subgraph</span>
        <input
          className="input"
          value={subgraph}
          placeholder={defaults.subgraphUrl}
          onChange={(e) => setSubgraph(e.target.value)}
        />
      </label>
      <button type="submit" className="btn" disabled={problem !== null || unchanged}>
        Save
      </button>
      {problem && <p className="inline-error">{problem}</p>}
    </form>
  )
}
