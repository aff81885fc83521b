// The Solve view: load a model into the tab (shipped, by URL, or a folder from disk), draw a task,
// sample G completions streaming, score them with the swarm's reward, and keep a table of solved tasks.
// Opening the view reloads the remembered model (a URL model comes back from the OPFS cache).
import { useEffect } from 'react'
import { solverStore } from '../../host/stores/solver-store.ts'
import { CompletionsPanel } from './CompletionsPanel.tsx'
import { HistoryPanel } from './HistoryPanel.tsx'
import { ModelPanel } from './ModelPanel.tsx'
import { tabSolveSession } from '../../host/solve/tab-session.ts'
import { TaskPanel } from './TaskPanel.tsx'
import './solve.css'

export function SolveView() {
  const session = tabSolveSession()
  useEffect(() => {
    const { model, task } = solverStore.getState()
    if (model.phase === 'idle') void session.reloadChoice(location.href)
    if (!task) session.drawCurrent()
  }, [session])

  return (
    <div className="view solve-view">
      <div className="solve-grid">
        <ModelPanel session={session} />
        <TaskPanel session={session} />
      </div>
      <CompletionsPanel />
      <HistoryPanel />
    </div>
  )
}
