// Browser entry: render the shell, then start the tab (identity, network, workers), which fills the stores.
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'
import { startTab } from '../host/start-tab.ts'
import { useNetStore } from '../host/stores/net-store.ts'
import './app.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)

startTab().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err)
  console.error('tabswarm: could not start this tab', err)
  useNetStore.setState({
    status: 'error',
    error: `Could not start this tab: ${message}. Reload the page to try again.`,
  })
})
