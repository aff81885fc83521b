// The app shell: header with nav, and the view the hash route names (#/swarm by default), each behind
// its own error boundary and loaded on first show.
import { Suspense } from 'react'
import { ConfirmDialog } from './common/ConfirmDialog.tsx'
import { ViewBoundary } from './common/ViewBoundary.tsx'
import { Header } from './Header.tsx'
import { useHashRoute } from './hash-route.ts'
import { DEFAULT_VIEW, VIEWS, VIEW_IDS } from './views.tsx'

export function App() {
  const route = useHashRoute(VIEW_IDS, DEFAULT_VIEW)
  const view = VIEWS.find((v) => v.id === route) ?? VIEWS[0]!
  const { Component } = view
  return (
    <div className="app">
      <Header views={VIEWS} active={view.id} />
      <main className="app-main" data-testid={`view-${view.id}`}>
        <ViewBoundary key={view.id} name={view.label}>
          <Suspense fallback={<p className="hint view-loading">Loading the {view.label} view…</p>}>
            <Component />
          </Suspense>
        </ViewBoundary>
      </main>
      <ConfirmDialog />
    </div>
  )
}
