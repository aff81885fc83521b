import { describe, expect, it } from 'vitest'
import { inProcessWorker, type InProcessWorker } from '../../../test-support/rpc/in-process-worker.ts'
import { overPort, serveRpc, workerRpc, type RpcMethod, type RpcScope, type RpcServer } from './worker-rpc.ts'

interface Methods {
  add: RpcMethod<{ a: number; b: number }, number>
  count: RpcMethod<number, string, number>
  fail: RpcMethod<string, never>
  unclonable: RpcMethod<null, () => void>
  bytes: RpcMethod<number, Uint8Array>
  slow: RpcMethod<number, number>
}

const server = (scope: RpcScope<Methods>) =>
  serveRpc(scope, {
    add: ({ a, b }) => a + b,
    count(n, { progress }) {
      for (let i = 1; i <= n; i++) progress(i)
      return `counted ${n}`
    },
    fail(why) {
      throw new Error(why)
    },
    bytes(n, { transfer }) {
      const out = new Uint8Array(n).fill(7)
      transfer(out.buffer)
      return out
    },
    slow: (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)),
    unclonable: () => () => {},
  })

function served() {
  const workers: InProcessWorker<Methods>[] = []
  let stops = 0
  const client = workerRpc(
    () => {
      const worker = inProcessWorker<Methods>(server)
      workers.push(worker)
      return worker
    },
    {
      errorOf: (method, message) => new Error(`${method}: ${message}`),
      crashed: (message) => new Error(`crashed: ${message}`),
      onStop: () => void stops++,
    },
  )
  return { client, workers, stops: () => stops }
}

describe('the worker RPC', () => {
  it('answers each call with its result, by id, whatever the order they finish in', async () => {
    const { client } = served()
    const slow = client.call('slow', 30)
    const fast = client.call('add', { a: 2, b: 3 })
    expect(fast.id).toBe(slow.id + 1)
    const order: string[] = []
    await Promise.all([slow.then(() => order.push('slow')), fast.then(() => order.push('fast'))])
    expect(order).toEqual(['fast', 'slow'])
    expect(await fast).toBe(5)
  })

  it('reports progress before the answer, and transfers what the handler marks', async () => {
    const { client } = served()
    const seen: number[] = []
    expect(await client.call('count', 3, { onProgress: (p) => seen.push(p) })).toBe('counted 3')
    expect(seen).toEqual([1, 2, 3])
    expect(Array.from(await client.call('bytes', 4))).toEqual([7, 7, 7, 7])
  })

  it("rejects with the client's own error for a handler's throw and for an unknown method", async () => {
    const { client, workers } = served()
    await expect(client.call('fail', 'no weights')).rejects.toThrow('fail: no weights')
    await expect(client.call('unclonable', null)).rejects.toThrow(/^unclonable: .*could not be cloned/)
    const sneaky = client as unknown as { call(method: string, params: unknown): Promise<unknown> }
    await expect(sneaky.call('format-disk', null)).rejects.toThrow(
      'format-disk: unknown method "format-disk"',
    )
    // the same worker still serves
    expect(await client.call('add', { a: 1, b: 1 })).toBe(2)
    expect(workers).toHaveLength(1)
  })

  it('starts the worker on the first call, and a fresh one after a stop or a crash', async () => {
    const { client, workers, stops } = served()
    expect(workers).toHaveLength(0)
    const waiting = [client.call('slow', 50), client.call('slow', 60)]
    client.stop(new Error('terminated'))
    for (const call of waiting) await expect(call).rejects.toThrow('terminated')
    expect(workers[0]!.terminated).toBe(true)
    expect(await client.call('add', { a: 1, b: 2 })).toBe(3)
    const slow = client.call('slow', 50)
    workers[1]!.crash('out of memory')
    await expect(slow).rejects.toThrow('crashed: out of memory')
    expect(workers[1]!.terminated).toBe(true)
    expect(await client.call('add', { a: 2, b: 2 })).toBe(4)
    expect(workers).toHaveLength(3)
    expect(stops()).toBe(2)
  })

  it('carries notices the server sends unasked, and the code of an error that has one', async () => {
    interface Coded {
      refuse: RpcMethod<string, never>
    }
    let notices: RpcServer<string> | undefined
    const heard: string[] = []
    const client = workerRpc<Coded, string>(
      () =>
        inProcessWorker<Coded>((scope) => {
          notices = serveRpc<Coded, string>(scope, {
            refuse(why) {
              throw Object.assign(new Error(why), { code: 'too-large' })
            },
          })
        }),
      {
        errorOf: (method, message, code) => new Error(`${method} [${code}]: ${message}`),
        crashed: (message) => new Error(message),
        onNotice: (notice) => void heard.push(notice),
      },
    )
    await expect(client.call('refuse', '9 MB')).rejects.toThrow('refuse [too-large]: 9 MB')
    notices!.notify('gossip 1')
    notices!.notify('gossip 2')
    await expect.poll(() => heard).toEqual(['gossip 1', 'gossip 2'])
  })

  it('answers nothing to a message that is not a call, and keeps serving', async () => {
    const replies: unknown[] = []
    const scope: RpcScope<Methods> = { onmessage: null, postMessage: (m) => void replies.push(m) }
    server(scope)
    for (const junk of [null, 7, 'add', { method: 'add', params: { a: 1, b: 1 } }])
      scope.onmessage!({ data: junk } as MessageEvent)
    scope.onmessage!({ data: { id: 1, method: 'add', params: { a: 1, b: 1 } } } as MessageEvent)
    await expect.poll(() => replies).toEqual([{ id: 1, result: 2 }])
  })

  it('runs over a MessagePort with the roles reversed; a stopped port takes no more calls', async () => {
    const { port1, port2 } = new MessageChannel()
    server(port1 as unknown as RpcScope<Methods>)
    let spawns = 0
    const client = workerRpc<Methods>(
      () => {
        if (spawns++ > 0) throw new Error('the port is closed')
        return overPort(port2)
      },
      { errorOf: (_m, message) => new Error(message), crashed: (message) => new Error(message) },
    )
    expect(await client.call('add', { a: 20, b: 22 })).toBe(42)
    client.stop(new Error('closed'))
    await expect(client.call('add', { a: 1, b: 1 })).rejects.toThrow('the port is closed')
    port1.close()
  })
})
