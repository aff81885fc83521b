// A worker in this thread for the RPC clients' tests: the real server (`serve` sets up serveRpc on the
// scope it is given) behind a page end that behaves like a Worker's — replies are structured-cloned,
// transfers included, and arrive on a later task; after terminate nothing arrives.
import type { RpcReply, RpcRequest, RpcScope, RpcWorker } from '../../src/peer/rpc/worker-rpc.ts'

export interface InProcessWorker<M> extends RpcWorker<M> {
  readonly terminated: boolean
  /** the worker failing as a crashed one does (an error event) */
  crash(message: string): void
}

export function inProcessWorker<M>(
  serve: (scope: RpcScope<M>) => void,
  /** clone requests as postMessage does; off where they hold Files, whose path Node's clone drops */
  cloneRequests = true,
): InProcessWorker<M> {
  let terminated = false
  const scope: RpcScope<M> = {
    onmessage: null,
    postMessage(message: RpcReply, transfer: Transferable[]) {
      const data = structuredClone(message, { transfer })
      setTimeout(() => {
        if (!terminated) worker.onmessage?.({ data } as MessageEvent<RpcReply>)
      })
    },
  }
  const worker: InProcessWorker<M> = {
    onmessage: null,
    onerror: null,
    get terminated() {
      return terminated
    },
    postMessage(message: RpcRequest<M>, transfer: Transferable[] = []) {
      const data = cloneRequests ? structuredClone(message, { transfer }) : message
      scope.onmessage?.({ data } as MessageEvent<RpcRequest<M>>)
    },
    terminate() {
      terminated = true
    },
    crash(message: string) {
      worker.onerror?.({ message } as ErrorEvent)
    },
  }
  serve(scope)
  return worker
}
