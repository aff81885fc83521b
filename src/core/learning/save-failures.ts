// What the user is told when the tab cannot save (a full disk, usually): learning goes on either way, and
// the sentence says what a reload would lose.
import { isStorageFull } from '../storage/blob-store.ts'

/** Training steps the trainer holds but could not save (its status carries it to the tab). */
export interface TrainerUnsaved {
  /** the newest policy version in the store: where a reload would resume */
  readonly savedVersion: number
  /** the store refused for lack of room (QuotaExceededError) */
  readonly full: boolean
  /** the store's error message */
  readonly why: string
}

/** A history save that failed, in a sentence for the user: a full disk is the usual reason and is named so. */
export function historySaveFailure(error: unknown): string {
  if (isStorageFull(error))
    return "Your browser's storage is full: round history is no longer saved (learning goes on, and saving is tried again every round)."
  const why = error instanceof Error ? error.message : String(error)
  return `Round history could not be saved (${why}); learning goes on, and saving is tried again every round.`
}

/** Training steps that are in use but not saved, in a sentence: what a reload now would go back to. */
export function trainerUnsavedSentence({ savedVersion, full, why }: TrainerUnsaved): string {
  const back = `learning goes on in memory; a reload now would go back to policy version ${savedVersion}`
  return full
    ? `Your browser's storage is full: training steps after policy version ${savedVersion} are not saved (${back}).`
    : `The trainer's state could not be saved (${why}); ${back}.`
}
