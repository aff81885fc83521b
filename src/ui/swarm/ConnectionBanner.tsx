// One line that says where this tab stands with the swarm, and what to do about it.
import type { ReactNode } from 'react'
import { CopyButton } from '../common/CopyButton.tsx'
import { connectionState, type ConnectionState, type Tone } from '../connection-state.ts'
import { routeHref } from '../hash-route.ts'
import type { PeerRow } from '../peer-rows.ts'
import { useNetStore, useSettingsStore } from '../stores.ts'

const TONE: Record<ConnectionState, Tone> = {
  error: 'bad',
  left: 'muted',
  paused: 'warn',
  unreachable: 'bad',
  connecting: 'warn',
  alone: 'warn',
  connected: 'good',
}

/** This page's address without the route, for "open this URL in another tab". */
const pageUrl = () => window.location.href.split('#')[0] ?? window.location.href

export function ConnectionBanner({ rows }: { rows: readonly PeerRow[] }) {
  const status = useNetStore((s) => s.status)
  const relay = useNetStore((s) => s.relay)
  const error = useNetStore((s) => s.error)
  const participation = useSettingsStore((s) => s.participation)
  const relayCount = useSettingsStore((s) => s.config?.relays.length ?? 0)
  const state = connectionState({ status, relay, error, participation, peerCount: rows.length })
  const direct = rows.filter((r) => r.connection === 'direct').length
  const relayed = rows.filter((r) => r.connection === 'relayed').length
  const settings = <a href={routeHref('settings')}>Settings</a>

  let title: string
  let detail: ReactNode
  switch (state) {
    case 'error':
      title = 'Network error'
      detail = error ?? 'The network node stopped with an error. Reload the page to try again.'
      break
    case 'left':
      title = 'You left the swarm'
      detail = <>The network node is stopped: this tab neither sends nor receives. Rejoin from {settings}.</>
      break
    case 'paused':
      title = 'Paused — connected, not publishing'
      detail = <>This tab still relays gossip but publishes nothing of its own. Resume from {settings}.</>
      break
    case 'unreachable':
      title = 'Relay unreachable — retrying'
      detail =
        direct > 0
          ? `Existing direct links keep working (${direct} direct). New peers cannot find this tab until a relay answers.`
          : 'Existing direct links would keep working, but there are none yet. New peers cannot find this tab until a relay answers.'
      break
    case 'connecting':
      title = 'Connecting to relay…'
      detail =
        relayCount > 0
          ? `Reaching ${relayCount === 1 ? 'the relay' : `one of ${relayCount} relays`} to find the other peers of this swarm.`
          : 'Reaching the relay to find the other peers of this swarm.'
      break
    case 'alone':
      title = 'No peers yet — open this URL in another tab'
      detail = (
        <>
          The relay is reachable; other tabs that open <code>{pageUrl()}</code> join this swarm.{' '}
          <CopyButton text={pageUrl()} label="Copy URL" />
        </>
      )
      break
    case 'connected':
      title = `Connected to ${rows.length} ${rows.length === 1 ? 'peer' : 'peers'}`
      detail = `${direct} direct, ${relayed} relayed, ${rows.length - direct - relayed} gossip only.`
      break
  }

  return (
    <div
      className={`banner tone-${TONE[state]}`}
      role="status"
      data-testid="connection-banner"
      data-state={state}
    >
      <span className="banner-dot" aria-hidden="true" />
      <div>
        <strong className="banner-title">{title}</strong>
        <div className="banner-detail">{detail}</div>
      </div>
    </div>
  )
}
