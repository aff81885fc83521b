import { describe, expect, it } from 'vitest'
import { inProcessWorker, type InProcessWorker } from '../../../test-support/rpc/in-process-worker.ts'
import { serveRpc, workerRpc, type RpcMethod, type RpcScope } from './worker-rpc.ts'

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
})
