// The tab's one Solve session, wired to the real solver worker and sandbox, both started on first use
// (opening the Solve view), not with the app.
import type { SandboxClient } from '../../peer/sandbox/sandbox-client.ts'
import { createSolverClient } from '../../peer/solver/solver-client.ts'
import { createSolveSession, type SolveSession, type SolverPort } from './solve-session.ts'

let session: SolveSession | undefined

export function tabSolveSession(): SolveSession {
  if (session) return session
  let solver: SolverPort | undefined
  let sandbox: SandboxClient | undefined
  session = createSolveSession({
    solver: () => (solver ??= createSolverClient()),
    // loaded on the first code task, like the debug handle does: reasoning tasks never need it
    runSandbox: async (job) =>
      (sandbox ??= (await import('../../peer/sandbox/browser-sandbox.ts')).createBrowserSandbox()).run(job),
    now: () => Date.now(),
  })
  return session
}
