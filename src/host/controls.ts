// The actions the UI can ask for. The views never talk to workers or libp2p: they call these, and the
// code that starts the tab (start-tab.ts) provides them with setAppControls().
export interface AppControls {
  /** downloads this tab's identity (peer key) as a backup file */
  exportIdentity(): Promise<void>
  /** replaces this tab's identity with the one in `file` (.json or swarm.pem); rejects with a message a user can act on */
  importIdentity(file: File): Promise<void>
  /** stay connected but stop publishing */
  pause(): void
  resume(): void
  /** stop the node until rejoin() */
  leave(): Promise<void>
  rejoin(): Promise<void>
}

let current: AppControls | null = null
const listeners = new Set<() => void>()

/** Installs (or, with null, removes) the controls; subscribers (the views' useAppControls) hear of it. */
export function setAppControls(controls: AppControls | null): void {
  current = controls
  for (const listener of listeners) listener()
}

export function getAppControls(): AppControls | null {
  return current
}

/** Calls `listener` whenever the controls are installed or removed; returns the unsubscribe. */
export function subscribeAppControls(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
