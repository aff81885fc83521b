// How this tab reaches the others: relays (bootnodes) and ICE servers from the swarm config.
import { Card } from '../common/Card.tsx'
import { CopyButton } from '../common/CopyButton.tsx'
import { useSettingsStore } from '../stores.ts'

export function NetworkConfigCard() {
  const config = useSettingsStore((s) => s.config)
  const relays = config?.relays ?? []
  const ice = config?.iceServers ?? []

  if (!config) {
    return (
      <Card title="Network" className="network-config-card">
        <p className="muted">No swarm config loaded, so no relays or ICE servers to show.</p>
      </Card>
    )
  }
  return (
    <Card title="Network" className="network-config-card">
      <h3>Relays</h3>
      {relays.length === 0 ? (
        <p className="muted">none configured</p>
      ) : (
        <ul className="addr-list" data-testid="relay-addrs">
          {relays.map((r) => (
            <li key={r} className="id-line">
              <code title={r}>{r}</code>
              <CopyButton text={r} />
            </li>
          ))}
        </ul>
      )}
      <p className="hint">
        Relays only introduce peers (circuit relay + peer discovery); they keep no swarm state. Peers then
        upgrade to direct WebRTC links where they can.
      </p>

      <h3>ICE servers</h3>
      {ice.length === 0 ? (
        <p data-testid="ice-servers">none — loopback/LAN only</p>
      ) : (
        <ul className="addr-list" data-testid="ice-servers">
          {ice.map((s, i) => (
            <li key={i}>
              <code>{Array.isArray(s.urls) ? s.urls.join(', ') : s.urls}</code>
              {s.username && <span className="muted"> · user {s.username}</span>}
              {s.credential && <span className="muted"> · credential ••••</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="hint">
        Without STUN/TURN servers, WebRTC only links tabs on this machine or LAN; add them to the config to
        link peers across the internet.
      </p>
    </Card>
  )
}
