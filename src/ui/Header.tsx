// The top bar: logo, nav, who this tab is and how connected it is.
import { RELAY_LABEL, STATUS_TONE } from './connection-state.ts'
import { shortId } from '../host/format.ts'
import { routeHref } from './hash-route.ts'
import { LearningStatus } from './LearningStatus.tsx'
import type { ViewDef } from './views.tsx'
import { useNetStore, useSettingsStore, useSwarmStore } from './stores.ts'

function Logo() {
  return (
    <a className="logo" href={routeHref('swarm')} aria-label="tabswarm home">
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <circle cx="12" cy="12" r="3.2" className="logo-core" />
        {[0, 60, 120, 180, 240, 300].map((deg) => {
          const a = (deg * Math.PI) / 180
          const x = 12 + 8.5 * Math.cos(a)
          const y = 12 + 8.5 * Math.sin(a)
          return (
            <g key={deg}>
              <line x1="12" y1="12" x2={x} y2={y} className="logo-edge" />
              <circle cx={x} cy={y} r="1.9" className="logo-node" />
            </g>
          )
        })}
      </svg>
      <span>tabswarm</span>
    </a>
  )
}

export function Header({ views, active }: { views: readonly ViewDef[]; active: string }) {
  const status = useNetStore((s) => s.status)
  const relay = useNetStore((s) => s.relay)
  const topologyId = useNetStore((s) => s.topology?.peerId ?? null)
  const self = useSwarmStore((s) => s.self)
  const swarmName = useSettingsStore((s) => s.config?.name ?? null)
  const peerId = self?.peerId ?? topologyId
  const relayLabel = RELAY_LABEL[relay]
  // A stopped or failed node has no relay link; its last relay state would be stale.
  const nodeRuns = status === 'starting' || status === 'online' || status === 'paused'

  return (
    <header className="app-header">
      <div className="brand">
        <Logo />
        {swarmName && (
          <span className="swarm-name" title="swarm">
            {swarmName}
          </span>
        )}
      </div>
      <nav className="tabs" aria-label="views">
        {views.map((v) => (
          <a
            key={v.id}
            href={routeHref(v.id)}
            className={`tab ${v.id === active ? 'active' : ''}`}
            aria-current={v.id === active ? 'page' : undefined}
            data-testid={`nav-${v.id}`}
          >
            {v.label}
          </a>
        ))}
      </nav>
      <div className="whoami">
        <span className="whoami-name" data-testid="header-self-name" title={self?.name}>
          {self?.name ?? (status === 'error' ? 'not started' : 'starting…')}
        </span>
        {peerId && (
          <code className="whoami-id" title={peerId} data-testid="header-self-id">
            {shortId(peerId)}
          </code>
        )}
        <span className={`pill tone-${STATUS_TONE[status]}`} data-testid="net-status" data-status={status}>
          {status}
        </span>
        {nodeRuns && (
          <span className={`pill tone-${relayLabel.tone}`} data-testid="relay-state" data-state={relay}>
            {relayLabel.text}
          </span>
        )}
        <LearningStatus />
      </div>
    </header>
  )
}
