// Which slots a tab tries, in order. Pure: the caller tries each slot's lock and stops at the first
// it gets, so an endless sequence is fine (only finitely many slots can be held).

/**
 * The slot this tab had before a reload first (its own key back), then every stored slot from the
 * lowest (reuse keys before making new ones), then empty slots from the lowest.
 */
export function* slotCandidates(stored: readonly number[], remembered: number | null): Generator<number> {
  if (remembered !== null) yield remembered
  for (const slot of [...stored].sort((a, b) => a - b)) if (slot !== remembered) yield slot
  for (const slot of emptySlots(stored)) if (slot !== remembered) yield slot
}

/** Slot indices with no stored key, lowest first, without end. */
export function* emptySlots(stored: readonly number[]): Generator<number> {
  const taken = new Set(stored)
  for (let slot = 0; ; slot++) if (!taken.has(slot)) yield slot
}
