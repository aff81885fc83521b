// The swarm this tab is in: its config document, readable and raw, and how to pick another.
import { Card } from '../common/Card.tsx'
import { CopyButton } from '../common/CopyButton.tsx'
import { RelativeTime } from '../common/RelativeTime.tsx'
import { formatDuration } from '../../host/format.ts'
import { useSettingsStore, useSwarmStore } from '../stores.ts'

/** This page with ?swarm=<url> set, as an example link (keeps the current route). */
function swarmLink(configUrl: string): string {
  const url = new URL(window.location.href)
  url.searchParams.set('swarm', configUrl)
  return url.toString()
}

export function SwarmConfigCard() {
  const config = useSettingsStore((s) => s.config)
  const swarmId = useSettingsStore((s) => s.swarmId)
  const configUrl = useSettingsStore((s) => s.configUrl)
  const round = useSwarmStore((s) => s.round)

  return (
    <Card title="Swarm" className="config-card" testId="swarm-config">
      {config ? (
        <table className="table kv-table">
          <tbody>
            <tr>
              <th scope="row">Name</th>
              <td data-testid="config-name">{config.name}</td>
            </tr>
            <tr>
              <th scope="row">Swarm id</th>
              <td className="id-line">
                <code className="peer-id" data-testid="swarm-id">
                  {swarmId ?? '—'}
                </code>
                {swarmId && <CopyButton text={swarmId} />}
              </td>
            </tr>
            <tr>
              <th scope="row">Genesis</th>
              <td>
                {new Date(config.genesisTime)
                  .toISOString()
                  .replace('T', ' ')
                  .replace(/\.\d+Z$/, ' UTC')}{' '}
                <span className="muted">
                  (<RelativeTime at={config.genesisTime} />)
                </span>
              </td>
            </tr>
            <tr>
              <th scope="row">Round length</th>
              <td>{formatDuration(config.roundLengthMs)}</td>
            </tr>
            <tr>
              <th scope="row">Current round</th>
              <td data-testid="current-round">
                {round >= 0 ? round : <span className="muted">not started</span>}
              </td>
            </tr>
            <tr>
              <th scope="row">Format version</th>
              <td>{config.version}</td>
            </tr>
          </tbody>
        </table>
      ) : (
        <p className="muted">No swarm config loaded yet.</p>
      )}

      <h3>Config URL</h3>
      <p className="id-line">
        <code data-testid="config-url">{configUrl}</code>
        <CopyButton text={new URL(configUrl, window.location.href).toString()} />
      </p>
      <p className="hint">
        The swarm id is the SHA-256 of this document, so every tab that loads the same config joins the same
        swarm. To join another swarm, open this page with <code>?swarm=&lt;config URL&gt;</code>, for example{' '}
        <a href={swarmLink('https://example.org/my-swarm.json')}>
          <code>?swarm=https://example.org/my-swarm.json</code>
        </a>
        .
      </p>

      {config && (
        <details className="raw-json">
          <summary>Raw JSON</summary>
          <pre data-testid="config-json">{JSON.stringify(config, null, 2)}</pre>
        </details>
      )}
    </Card>
  )
}
