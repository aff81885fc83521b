// The task: family (reasoning families and code templates), difficulty, seed, the sampling settings,
// the prompt the model sees, and the buttons: Solve, Next task, Solve N in a row (with progress), Stop.
import { useState } from 'react'
import { DIFFICULTIES, type Difficulty } from '../../core/tasks/task.ts'
import { Card } from '../common/Card.tsx'
import { NumberField } from './NumberField.tsx'
import type { NumericSetting } from './setting-limits.ts'
import { ANY_FAMILY, FAMILY_OPTIONS } from '../../host/solve/task-choice.ts'
import type { SolveSession } from '../../host/solve/solve-session.ts'
import { useSolverStore } from '../stores.ts'

/** The batch the "Solve N" button starts with. */
const DEFAULT_BATCH = 20
const MAX_BATCH = 500

export function TaskPanel({ session }: { session: SolveSession }) {
  const settings = useSolverStore((s) => s.settings)
  const task = useSolverStore((s) => s.task)
  const taskError = useSolverStore((s) => s.taskError)
  const ready = useSolverStore((s) => s.model.phase === 'ready')
  const running = useSolverStore((s) => s.run?.phase === 'generating' || s.run?.phase === 'scoring')
  const batch = useSolverStore((s) => s.batch)
  const [batchSize, setBatchSize] = useState(DEFAULT_BATCH)
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<NumericSetting, string>>>({})
  const reportError = (key: NumericSetting) => (error: string | null) =>
    setFieldErrors(({ [key]: _old, ...rest }) => (error === null ? rest : { ...rest, [key]: error }))
  const busy = running || batch !== null
  const canSolve = ready && task !== null && !busy

  return (
    <Card title="Task" testId="task-panel">
      <div className="form-row">
        <label className="field">
          <span>family</span>
          <select
            className="select"
            value={settings.family}
            disabled={busy}
            data-testid="task-family"
            onChange={(e) => session.updateSettings({ family: e.target.value })}
          >
            <option value={ANY_FAMILY}>any (each in turn)</option>
            {FAMILY_OPTIONS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>difficulty</span>
          <select
            className="select"
            value={settings.difficulty}
            disabled={busy}
            data-testid="task-difficulty"
            onChange={(e) => session.updateSettings({ difficulty: Number(e.target.value) as Difficulty })}
          >
            {DIFFICULTIES.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <NumberField
          setting="seed"
          value={settings.seed}
          disabled={busy}
          onValue={(seed) => session.updateSettings({ seed })}
          onError={reportError('seed')}
        />
        <button
          type="button"
          className="btn"
          data-testid="task-next"
          disabled={busy}
          onClick={session.nextTask}
        >
          Next task
        </button>
      </div>
      <div className="form-row">
        {(['samples', 'temperature', 'topK', 'topP', 'maxTokens'] as const).map((key) => (
          <NumberField
            key={key}
            setting={key}
            value={settings[key]}
            disabled={busy}
            onValue={(value) => session.updateSettings({ [key]: value })}
            onError={reportError(key)}
          />
        ))}
      </div>

      {Object.entries(fieldErrors).map(([key, error]) => (
        <p key={key} className="inline-error" role="alert" data-testid={`setting-${key}-error`}>
          {error}
        </p>
      ))}
      {taskError && (
        <p className="inline-error" role="alert" data-testid="task-error">
          {taskError}
        </p>
      )}
      {task && (
        <div className="solve-task" data-testid="task" data-task-id={task.id} data-kind={task.kind}>
          <div className="solve-task-head">
            <span className="tag" data-testid="task-family-name">
              {task.kind === 'code' ? `code: ${task.family}` : task.family}
            </span>
            <span className="muted">
              difficulty {task.difficulty} · seed {task.seed} · id{' '}
              <code title={task.id}>{task.id.slice(0, 12)}</code>
            </span>
          </div>
          <pre className="solve-prompt" data-testid="task-prompt">
            {task.prompt}
          </pre>
        </div>
      )}

      <div className="button-row solve-actions">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="solve-button"
          disabled={!canSolve}
          onClick={() => void session.solve()}
        >
          Solve
        </button>
        <label className="solve-batch-size">
          <input
            className="input"
            type="number"
            min={1}
            max={MAX_BATCH}
            value={batchSize}
            disabled={busy}
            aria-label="tasks in a row"
            data-testid="solve-batch-count"
            onChange={(e) =>
              setBatchSize(Math.min(MAX_BATCH, Math.max(1, Math.floor(Number(e.target.value)) || 1)))
            }
          />
        </label>
        <button
          type="button"
          className="btn"
          data-testid="solve-batch"
          disabled={!canSolve}
          onClick={() => void session.solveBatch(batchSize)}
        >
          Solve {batchSize} in a row
        </button>
        <button
          type="button"
          className="btn btn-danger"
          data-testid="solve-stop"
          disabled={!busy}
          onClick={session.cancel}
        >
          Stop
        </button>
        {!ready && <span className="hint-inline">load a model first</span>}
      </div>
      {batch && (
        <div
          className="solve-batch"
          data-testid="batch-progress"
          data-done={batch.done}
          data-total={batch.total}
        >
          <span>
            Solving task {Math.min(batch.done + 1, batch.total)} of {batch.total}
          </span>
          <div
            className="meter"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={batch.total}
            aria-valuenow={batch.done}
          >
            <div className="meter-fill" style={{ width: `${(100 * batch.done) / batch.total}%` }} />
          </div>
        </div>
      )}
    </Card>
  )
}
