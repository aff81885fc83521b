// An in-memory stand-in for `navigator.locks` (exclusive locks; `ifAvailable`, or waiting in line
// until an AbortSignal fires) for Node tests, shared by the "tabs" of one test the way the real one
// is shared by a browser profile's tabs.
import type { SlotLockManager } from '../../src/host/identity/slot-lock.ts'

export interface FakeLockManager extends SlotLockManager {
  /** names of the locks held now */
  held(): string[]
}

export function createFakeLockManager(): FakeLockManager {
  const held = new Set<string>()
  const waiting = new Map<string, (() => void)[]>()

  const acquire = async (name: string, signal: AbortSignal | undefined): Promise<void> => {
    if (!held.has(name)) return
    await new Promise<void>((grant, reject) => {
      const queue = waiting.get(name) ?? []
      waiting.set(name, queue)
      queue.push(grant)
      signal?.addEventListener('abort', () => {
        const at = queue.indexOf(grant)
        if (at < 0) return // already granted: a late abort changes nothing
        queue.splice(at, 1)
        reject(signal.reason)
      })
    })
  }

  return {
    async request(name, options, callback) {
      if ('ifAvailable' in options && held.has(name)) return callback(null)
      await acquire(name, 'signal' in options ? options.signal : undefined)
      held.add(name)
      try {
        return await callback({ name })
      } finally {
        // Hand the lock straight to the next in line, as the real manager does.
        const next = waiting.get(name)?.shift()
        if (next) next()
        else held.delete(name)
      }
    },
    held: () => [...held],
  }
}
