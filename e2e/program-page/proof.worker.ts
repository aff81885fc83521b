// The same proof in a dedicated worker: WebGPU from WorkerNavigator, the page only relays.
import { makeReceipts, runProof, verifyHere } from './proof-run.ts'

export type WorkerRequest =
  | { readonly id: number; readonly kind: 'proof'; readonly steps: number }
  | { readonly id: number; readonly kind: 'receipts' }
  | { readonly id: number; readonly kind: 'verify'; readonly receipt: unknown; readonly inputs: unknown }

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data
  try {
    const result =
      request.kind === 'proof'
        ? await runProof(request.steps)
        : request.kind === 'receipts'
          ? await makeReceipts()
          : await verifyHere(request.receipt, request.inputs)
    self.postMessage({ id: request.id, result })
  } catch (error) {
    self.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) })
  }
}
