// The app shell: header with nav, and the view the hash route names (#/swarm by default).
import { ConfirmDialog } from './common/ConfirmDialog.tsx'
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
        <Component />
      </main>
      <ConfirmDialog />
    </div>
  )
}
