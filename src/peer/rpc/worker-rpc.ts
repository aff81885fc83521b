// One small typed RPC between the page and its workers (the solver, the trainer, the sandbox) and
// between the peer worker and the page's network node (the bridge). One side serves a map of methods;
// the other calls one by name with its params and gets exactly one answer, its result or an error
// (with a code where the server gives one), and any progress the method reports on the way. Calls
// carry an id so answers may come in any order; a server that runs its methods one at a time (the
// solver, the trainer) answers in the order sent. The server may also send notices nobody asked for
// (the bridge's gossip and inbound streams). The method map is a type shared by both sides
// (solver-protocol.ts, trainer-protocol.ts, sandbox-protocol.ts, bridge-protocol.ts), so a call and its
// handler cannot disagree on a shape.
//
// The caller is usually the page and the server a worker it spawns (`workerRpc(spawn)`); the bridge
// reverses the roles over a MessagePort the page hands the worker (`overPort`).

/** One method: what it takes, what it answers, and what it reports while it runs (never: nothing). */
export interface RpcMethod<P = unknown, R = unknown, E = never> {
  readonly params: P
  readonly result: R
  readonly progress: E
}

/** A worker's methods by name (an interface of RpcMethod entries). */
export type RpcMethods<M> = { readonly [K in keyof M]: RpcMethod<unknown, unknown, unknown> }

export type RpcRequest<M> = {
  [K in keyof M & string]: { readonly id: number; readonly method: K; readonly params: Params<M, K> }
}[keyof M & string]

export type RpcReply =
  | { readonly id: number; readonly result: unknown }
  | { readonly id: number; readonly error: string; readonly code?: string }
  | { readonly id: number; readonly progress: unknown }

/** What a server sends unasked: it answers no call, so it carries no id. */
export interface RpcNotice<N = unknown> {
  readonly notice: N
}

/** Everything the calling side receives. */
export type RpcInbound = RpcReply | RpcNotice

type Params<M, K extends keyof M> = M[K] extends RpcMethod<infer P, unknown, unknown> ? P : never
type Result<M, K extends keyof M> = M[K] extends RpcMethod<unknown, infer R, unknown> ? R : never
type Progress<M, K extends keyof M> = M[K] extends RpcMethod<unknown, unknown, infer E> ? E : never

/** The calling end: a Worker, or anything with the same slice (a port through `overPort`, a test's stand-in). */
export interface RpcWorker<M> {
  postMessage(message: RpcRequest<M>, transfer?: Transferable[]): void
  onmessage: ((event: MessageEvent<RpcInbound>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
  terminate(): void
}

/** The serving end: a worker's global scope, or a MessagePort. */
export interface RpcScope<M> {
  onmessage: ((event: MessageEvent<RpcRequest<M>>) => void) | null
  postMessage(message: RpcReply | RpcNotice, transfer: Transferable[]): void
}

/**
 * A MessagePort as the calling end: nothing crashes a port, and stopping closes it — for good, as the
 * port cannot be opened again, so `spawn` must not hand the same port out twice.
 */
export function overPort<M>(port: MessagePort): RpcWorker<M> {
  return {
    postMessage: (message, transfer = []) => port.postMessage(message, transfer),
    get onmessage() {
      return port.onmessage as RpcWorker<M>['onmessage']
    },
    set onmessage(listener) {
      port.onmessage = listener as MessagePort['onmessage']
      port.start()
    },
    onerror: null,
    terminate: () => port.close(),
  }
}

/** A call in flight: its answer, and its id (what a cancel method takes). */
export type RpcCall<R> = Promise<R> & { readonly id: number }

export interface RpcCallOptions<E> {
  /** buffers handed to the worker (detached here) */
  readonly transfer?: Transferable[]
  readonly onProgress?: (progress: E) => void
}

export interface WorkerRpc<M> {
  /** Calls `method` on the worker, starting one first if none runs. */
  call<K extends keyof M & string>(
    method: K,
    params: Params<M, K>,
    options?: RpcCallOptions<Progress<M, K>>,
  ): RpcCall<Result<M, K>>
  /** Stops the worker; every call still waiting rejects with `error`. The next call starts a fresh one. */
  stop(error: Error): void
}

export interface WorkerRpcOptions<M, N = never> {
  /** the error a method's error answer rejects with (each client words its own; `code` as the server gave it) */
  errorOf(method: keyof M & string, message: string, code: string | undefined): Error
  /** the error waiting calls reject with when the worker crashes */
  crashed(message: string): Error
  /** after the worker stopped or crashed (a client forgets what the worker held) */
  onStop?(): void
  /** each notice the server sends (there are none unless the server sends them) */
  onNotice?(notice: N): void
}

interface Pending {
  readonly method: string
  readonly onProgress: ((progress: never) => void) | undefined
  resolve(result: unknown): void
  reject(error: Error): void
}

/**
 * Calls into a worker from `spawn`, started on the first call. A crash rejects every waiting call with
 * `crashed(message)` and drops the worker; the next call starts another.
 */
export function workerRpc<M extends RpcMethods<M>, N = never>(
  spawn: () => RpcWorker<M>,
  options: WorkerRpcOptions<M, N>,
): WorkerRpc<M> {
  let worker: RpcWorker<M> | undefined
  let nextId = 1
  const pending = new Map<number, Pending>()

  const stop = (error: Error) => {
    for (const call of pending.values()) call.reject(error)
    pending.clear()
    worker?.terminate()
    worker = undefined
    options.onStop?.()
  }

  const started = (): RpcWorker<M> => {
    if (worker) return worker
    const fresh = spawn()
    fresh.onmessage = ({ data }) => {
      if ('notice' in data) return options.onNotice?.(data.notice as N)
      const call = pending.get(data.id)
      if (!call) return
      if ('progress' in data) return call.onProgress?.(data.progress as never)
      pending.delete(data.id)
      if ('error' in data)
        call.reject(options.errorOf(call.method as keyof M & string, data.error, data.code))
      else call.resolve(data.result)
    }
    fresh.onerror = (event) => {
      // a crash of a worker already replaced says nothing about the running one
      if (fresh === worker) stop(options.crashed(event.message))
    }
    worker = fresh
    return fresh
  }

  return {
    call(method, params, callOptions = {}) {
      const id = nextId++
      const answer = new Promise<Result<M, typeof method>>((resolve, reject) => {
        // posted first: a call that cannot be sent (its params will not clone, no worker can be
        // started) rejects without leaving an entry that no answer will ever take
        started().postMessage({ id, method, params } as RpcRequest<M>, callOptions.transfer ?? [])
        pending.set(id, {
          method,
          onProgress: callOptions.onProgress as Pending['onProgress'],
          resolve: resolve as (result: unknown) => void,
          reject,
        })
      })
      return Object.assign(answer, { id })
    },
    stop,
  }
}

/** What a handler is given besides its params. */
export interface RpcContext<E> {
  /** the call's id (a later cancel call names it) */
  readonly id: number
  progress(progress: E): void
  /** buffers of the result to move to the page instead of copying */
  transfer(...buffers: Transferable[]): void
}

export type RpcHandlers<M> = {
  readonly [K in keyof M & string]: (
    params: Params<M, K>,
    context: RpcContext<Progress<M, K>>,
  ) => Result<M, K> | Promise<Result<M, K>>
}

/** The serving side's handle: notices go out on the same channel as answers. */
export interface RpcServer<N> {
  notify(notice: N, transfer?: Transferable[]): void
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
/** an error's `code` travels with its message when it is a string (the bridge's error codes) */
const codeOf = (error: unknown) => {
  const code: unknown = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/**
 * Serves `handlers` on `scope`: each request runs its handler at once (as it arrives, so handlers that
 * queue keep the order sent) and gets one answer; a handler's throw is the call's error answer, and an
 * unknown method or a request that is not one is one too. Nothing a request holds can stop the server.
 */
export function serveRpc<M extends RpcMethods<M>, N = never>(
  scope: RpcScope<M>,
  handlers: RpcHandlers<M>,
): RpcServer<N> {
  scope.onmessage = ({ data }) => {
    const { id, method, params } = (data ?? {}) as Partial<RpcRequest<M>>
    if (typeof id !== 'number') return // nothing to answer: no call is waiting on it
    const transfer: Transferable[] = []
    const context: RpcContext<never> = {
      id,
      progress: (progress) => scope.postMessage({ id, progress }, []),
      transfer: (...buffers) => transfer.push(...buffers),
    }
    const handler =
      typeof method === 'string' && Object.hasOwn(handlers, method)
        ? (handlers[method] as (p: unknown, c: RpcContext<never>) => unknown)
        : () => {
            throw new RangeError(`unknown method ${JSON.stringify(method)}`)
          }
    const fail = (error: unknown) => {
      const code = codeOf(error)
      scope.postMessage(
        code === undefined ? { id, error: messageOf(error) } : { id, error: messageOf(error), code },
        [],
      )
    }
    void Promise.resolve()
      .then(() => handler(params, context))
      .then((result) => {
        try {
          scope.postMessage({ id, result }, transfer)
        } catch (error) {
          // a result postMessage cannot clone still gets its one answer
          fail(error)
        }
      }, fail)
  }
  return { notify: (notice, transfer = []) => scope.postMessage({ notice }, transfer) }
}
