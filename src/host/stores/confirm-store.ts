// In-app confirmations: a flow asks (requestConfirmation) and awaits the user's answer from the
// ConfirmDialog the shell renders. Used for burner transactions (trades always, swarm submissions
// unless allowed). One question at a time; the others wait in line.
import { createStore } from 'zustand/vanilla'

export interface ConfirmRequest {
  title: string
  /** what is about to happen, as label/value rows (contract, function, amount, network, …) */
  details: { label: string; value: string }[]
  /** default "Confirm" */
  confirmLabel?: string
  /** a sentence under the details (e.g. what the value at stake is) */
  note?: string
  /** what kind of transaction asks ('trade', 'swarm', …), so a setting can answer a whole kind at once */
  kind?: string
}

interface Pending extends ConfirmRequest {
  id: number
  resolve: (yes: boolean) => void
}

interface ConfirmState {
  queue: Pending[]
}

export const confirmStore = createStore<ConfirmState>()(() => ({ queue: [] }))

let nextId = 1

/** Shows `request` to the user; resolves true on confirm, false on cancel. */
export function requestConfirmation(request: ConfirmRequest): Promise<boolean> {
  return new Promise((resolve) => {
    const pending: Pending = { ...request, id: nextId++, resolve }
    confirmStore.setState((s) => ({ queue: [...s.queue, pending] }))
  })
}

/** The user's answer to the request `id` (the first in line). */
export function answerConfirmation(id: number, yes: boolean): void {
  const pending = confirmStore.getState().queue.find((p) => p.id === id)
  if (!pending) return
  confirmStore.setState((s) => ({ queue: s.queue.filter((p) => p.id !== id) }))
  pending.resolve(yes)
}

/**
 * Answers every waiting question of `kind` with `yes` (the user just allowed that kind in the settings:
 * the dialog on screen for it is no longer theirs to answer).
 */
export function answerConfirmationsOf(kind: string, yes: boolean): void {
  for (const pending of confirmStore.getState().queue.filter((p) => p.kind === kind))
    answerConfirmation(pending.id, yes)
}

/** The question on screen now, or null. */
export const currentConfirmation = (s: ConfirmState): (ConfirmRequest & { id: number }) | null =>
  s.queue[0] ?? null
