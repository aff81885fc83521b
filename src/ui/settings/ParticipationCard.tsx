// Pause / resume publishing, leave / rejoin the swarm.
import { useState } from 'react'
import { Card } from '../common/Card.tsx'
import { useAppControls } from '../use-controls.ts'
import { useNetStore, useSettingsStore } from '../stores.ts'

const DESCRIPTION = {
  active: 'Active: this tab publishes its presence and work and relays the swarm’s gossip.',
  paused: 'Paused: still connected and relaying gossip, but publishing nothing of its own.',
  left: 'Left: the network node is stopped; this tab sends and receives nothing until you rejoin.',
} as const

export function ParticipationCard() {
  const participation = useSettingsStore((s) => s.participation)
  const netFailed = useNetStore((s) => s.status === 'error')
  const controls = useAppControls()
  const [busy, setBusy] = useState<'leave' | 'rejoin' | null>(null)
  const [error, setError] = useState<string | null>(null)

  const run = async (what: 'leave' | 'rejoin') => {
    if (!controls) return
    setBusy(what)
    setError(null)
    try {
      await (what === 'leave' ? controls.leave() : controls.rejoin())
    } catch (err) {
      setError(
        `${what === 'leave' ? 'Leaving' : 'Rejoining'} failed: ${err instanceof Error ? err.message : String(err)}`,
      )
    } finally {
      setBusy(null)
    }
  }
  const act = (fn: () => void) => {
    setError(null)
    try {
      fn()
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    }
  }

  const ready = controls !== null && busy === null
  // The tab failed before it could start (e.g. no swarm config): it never participated.
  const notStarted = controls === null && netFailed
  return (
    <Card title="Participation" className="participation-card">
      {notStarted ? (
        <p className="muted">Not participating: this tab could not start (see the error above).</p>
      ) : (
        <p>
          <span
            className={`pill tone-${participation === 'active' ? 'good' : participation === 'paused' ? 'warn' : 'muted'}`}
            data-testid="participation-state"
            data-state={participation}
          >
            {participation}
          </span>{' '}
          {DESCRIPTION[participation]}
        </p>
      )}
      <div className="button-row">
        <button
          type="button"
          className="btn"
          data-testid="pause-button"
          disabled={!ready || participation !== 'active'}
          onClick={() => act(() => controls?.pause())}
        >
          Pause
        </button>
        <button
          type="button"
          className="btn"
          data-testid="resume-button"
          disabled={!ready || participation !== 'paused'}
          onClick={() => act(() => controls?.resume())}
        >
          Resume
        </button>
        <button
          type="button"
          className="btn btn-danger"
          data-testid="leave-button"
          disabled={!ready || participation === 'left'}
          onClick={() => void run('leave')}
        >
          {busy === 'leave' ? 'Leaving…' : 'Leave swarm'}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="rejoin-button"
          disabled={!ready || participation !== 'left'}
          onClick={() => void run('rejoin')}
        >
          {busy === 'rejoin' ? 'Rejoining…' : 'Rejoin'}
        </button>
      </div>
      {controls === null && !notStarted && (
        <p className="hint">Controls become available once the tab has started.</p>
      )}
      {error && (
        <p className="inline-error" role="alert" data-testid="participation-error">
          {error}
        </p>
      )}
    </Card>
  )
}
