// One progress bar per model file while it loads (and after, so a person can see what came from the
// OPFS cache), and the total.
import { formatBytes } from '../../host/format.ts'
import { fileFraction, type FileProgress } from '../../host/stores/solver-store.ts'

const percent = (fraction: number) => Math.round(fraction * 100)

export function LoadProgress({ files, done }: { files: readonly FileProgress[]; done: boolean }) {
  if (files.length === 0) return null
  const total = done ? 1 : files.reduce((sum, f) => sum + fileFraction(f), 0) / files.length
  // the manifest is always read afresh (it pins the others), so a cached load is "n − 1 of n"
  const cached = files.filter((f) => f.fromCache).length
  return (
    <div className="solve-progress" data-testid="model-progress">
      <div className="solve-progress-total">
        <span>
          {done ? 'Loaded' : 'Loading…'}{' '}
          <span className="muted" data-testid="model-progress-cached" data-cached={cached}>
            {files.length} file{files.length === 1 ? '' : 's'}
            {cached > 0 && `, ${cached} from the cache`}
          </span>
        </span>
        <strong data-testid="model-progress-total" data-percent={percent(total)}>
          {percent(total)}%
        </strong>
      </div>
      <ul className="solve-progress-files">
        {files.map((f) => {
          const p = percent(fileFraction(f))
          return (
            <li
              key={f.file}
              data-testid="model-progress-file"
              data-file={f.file}
              data-percent={p}
              data-cached={f.fromCache}
            >
              <code className="solve-progress-name">{f.file}</code>
              <div
                className="meter solve-meter"
                role="progressbar"
                aria-label={f.file}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={p}
              >
                <div className="meter-fill" style={{ width: `${p}%` }} />
              </div>
              <span className="muted solve-progress-bytes">
                {f.totalBytes === undefined
                  ? formatBytes(f.loadedBytes)
                  : `${formatBytes(f.loadedBytes)} of ${formatBytes(f.totalBytes)}`}
                {f.fromCache && <span className="tag solve-cached"> cached</span>}
              </span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
