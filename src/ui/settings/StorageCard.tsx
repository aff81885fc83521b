// What this origin keeps in the browser (identity, checkpoints, rollouts) and whether it may be evicted.
import { Card } from '../common/Card.tsx'
import { formatBytes } from '../../host/format.ts'
import { useSettingsStore } from '../stores.ts'

export function StorageCard() {
  const storage = useSettingsStore((s) => s.storage)
  const share = storage && storage.quota > 0 ? Math.min(1, storage.usage / storage.quota) : 0
  return (
    <Card title="Storage" className="storage-card" testId="storage">
      {storage ? (
        <>
          <div
            className="meter"
            role="meter"
            aria-label="Storage used"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={share * 100}
          >
            <div className="meter-fill" style={{ width: `${Math.max(share * 100, share > 0 ? 0.5 : 0)}%` }} />
          </div>
          <dl className="kv">
            <dt>Used</dt>
            <dd data-testid="storage-usage">
              {formatBytes(storage.usage)} of {formatBytes(storage.quota)}{' '}
              <span className="muted">
                ({share > 0 && share < 0.0001 ? '<0.01' : (share * 100).toFixed(share < 0.01 ? 2 : 1)}%)
              </span>
            </dd>
            <dt>Persisted</dt>
            <dd data-testid="storage-persisted" data-value={String(storage.persisted)}>
              {storage.persisted ? (
                <span className="text-good">yes — the browser will not evict it</span>
              ) : (
                <span className="text-warn">
                  no — the browser may clear it when space runs low; back up your identity
                </span>
              )}
            </dd>
          </dl>
        </>
      ) : (
        <p className="muted">Unknown: this browser does not report storage use.</p>
      )}
    </Card>
  )
}
