// A test page (built by e2e/training-proof.spec.ts, not part of the app): runs reproducible programs
// on this browser's WebGPU device, in the page and in a dedicated worker, for the test to compare.
import { makeReceipts, runProof, verifyHere } from './proof-run.ts'
import type { WorkerRequest } from './proof.worker.ts'

/** A worker request without its id (distributes over the union's members). */
type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never

const worker = new Worker(new URL('./proof.worker.ts', import.meta.url), { type: 'module' })
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
let nextId = 0
worker.onmessage = (event: MessageEvent<{ id: number; result?: unknown; error?: string }>) => {
  const { id, result, error } = event.data
  const waiter = pending.get(id)
  pending.delete(id)
  if (error !== undefined) waiter?.reject(new Error(error))
  else waiter?.resolve(result)
}
function inWorker(request: Request): Promise<unknown> {
  const id = nextId++
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject })
    worker.postMessage({ ...request, id })
  })
}

declare global {
  var proofPage:
    | {
        runProof: typeof runProof
        makeReceipts: typeof makeReceipts
        verifyHere: typeof verifyHere
        worker: (request: Request) => Promise<unknown>
      }
    | undefined
}
globalThis.proofPage = { runProof, makeReceipts, verifyHere, worker: inWorker }
