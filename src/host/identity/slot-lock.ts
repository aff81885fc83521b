// One Web Lock per key slot: the tab that holds `tabswarm-key-slot-<n>` owns slot n until it closes
// (the browser drops a closed or crashed tab's locks by itself, so a slot is never left stranded).

/** The part of the Web Locks `LockManager` this module uses; `navigator.locks` satisfies it. */
export interface SlotLockManager {
  request(
    name: string,
    options: { ifAvailable: true } | { signal: AbortSignal },
    callback: (lock: object | null) => Promise<void> | void,
  ): Promise<unknown>
}

export function slotLockName(slot: number): string {
  return `tabswarm-key-slot-${slot}`
}

/**
 * Takes slot `slot`'s lock, waiting up to `waitMs` for its holder to let go (0: only if free now).
 * Resolves with a function that releases it, or with null when another tab still holds it. Unless
 * released, the lock is held for the page's lifetime.
 */
export function tryLockSlot(locks: SlotLockManager, slot: number, waitMs = 0): Promise<(() => void) | null> {
  const signal = waitMs > 0 ? AbortSignal.timeout(waitMs) : undefined
  return new Promise((resolve, reject) => {
    locks
      .request(slotLockName(slot), signal ? { signal } : { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(null)
          return
        }
        // The lock lasts as long as this promise is pending, i.e. until release() or the tab ends.
        return new Promise<void>((release) => resolve(() => release()))
      })
      // A timed-out wait rejects with the signal's reason: the holder kept the slot.
      .catch((e: unknown) => (signal?.aborted ? resolve(null) : reject(e)))
  })
}
