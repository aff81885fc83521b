// Browser entry: render the shell, then start the tab (identity, network, wallet, workers), which fills the
// stores. The tab's runtime is a chunk of its own, fetched once the shell has painted, so the first paint
// does not wait for libp2p, wagmi and the markets' code to be fetched and parsed.
import { StrictMode } from 'react'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'
import { netStore } from '../host/stores/net-store.ts'
import './app.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

// committed now, not on the scheduler's next turn: the frame that follows paints the shell
const reactRoot = createRoot(root)
flushSync(() =>
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
)

afterFirstPaint()
  .then(() => import('../host/start-tab.ts'))
  .then(({ startTab }) => startTab())
  .catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err)
    console.error('tabswarm: could not start this tab', err)
    netStore.setState({
      status: 'error',
      error: `Could not start this tab: ${message}. Reload the page to try again.`,
    })
  })

/**
 * Resolves once the browser has painted the shell (the task after the next frame) — at once in a tab
 * opened in the background, where no frame comes until it is shown and the peer must start anyway.
 */
function afterFirstPaint(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve()
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}
