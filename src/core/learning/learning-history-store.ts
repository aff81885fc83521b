// Where a tab keeps its learning history between page loads: one small JSON file per swarm and peer in
// a BlobStore (OPFS in a tab), so a reload shows the rounds, evaluations and peer standing it had and
// resumes the curriculum where it was. A file that cannot be read is set aside, never a failure: the
// history is a record, the weights (the trainer's snapshot) are what matter for resuming.
import type { BlobStore } from '../storage/blob-store.ts'
import { decodeCurriculum } from './curriculum.ts'
import type { HistoryStore, LearningHistory } from './learning-loop.ts'

/** The OPFS directory of learning histories. */
export const LEARNING_DIRECTORY = 'tabswarm-learning'
export const HISTORY_FORMAT = 'tabswarm-learning-history-v1'

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The saved history, or undefined when there is none or it is not one (a damaged or older file). */
export function decodeHistory(bytes: Uint8Array): LearningHistory | undefined {
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return undefined
  }
  if (!isObject(value) || value.format !== HISTORY_FORMAT) return undefined
  const { rounds, evals, curriculum, peers } = value
  if (!Array.isArray(rounds) || !Array.isArray(evals) || !isObject(peers)) return undefined
  // a history saved before the curriculum has a `difficulty` instead: it loads, its curriculum starts empty
  return { rounds, evals, curriculum: decodeCurriculum(curriculum), peers } as LearningHistory
}

export function encodeHistory(history: LearningHistory): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ format: HISTORY_FORMAT, ...history }))
}

/** The history of `peerId` in `swarmId` (hex and base58: valid file names). */
export function blobHistoryStore(store: BlobStore, swarmId: string, peerId: string): HistoryStore {
  const key = `history-${swarmId}-${peerId}`
  return {
    async load() {
      const bytes = await store.get(key).catch(() => undefined)
      return bytes && decodeHistory(bytes)
    },
    save: (history) => store.put(key, encodeHistory(history)),
  }
}
