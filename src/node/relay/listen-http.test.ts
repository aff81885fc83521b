import { createServer, request, Agent } from 'node:http'
import { describe, expect, it } from 'vitest'
import { CLOSE_GRACE_MS, closeHttp, listenHttp, PortInUseError } from './listen-http.ts'

const get = (port: number, agent: Agent): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end()
  })

describe('closeHttp', () => {
  it('frees the port even while a client keeps its keep-alive connection busy', async () => {
    // each reply takes 100 ms and the client asks again at once: the connection is never idle
    const server = createServer((_req, res) => setTimeout(() => res.end('ok'), 100))
    const port = await listenHttp(server, 'test', '127.0.0.1', 0)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    let polling = true
    const poller = (async () => {
      while (polling) await get(port, agent).catch(() => (polling = false))
    })()
    await new Promise((r) => setTimeout(r, 300))
    const started = performance.now()
    await closeHttp(server)
    const took = performance.now() - started
    expect(took).toBeLessThan(CLOSE_GRACE_MS + 1_000)
    polling = false
    await poller
    agent.destroy()
    // the port is free again
    const again = createServer()
    await listenHttp(again, 'test', '127.0.0.1', port)
    await closeHttp(again)
  })

  it('names the port when it is taken', async () => {
    const a = createServer()
    const port = await listenHttp(a, 'app server', '127.0.0.1', 0)
    const b = createServer()
    await expect(listenHttp(b, 'app server', '127.0.0.1', port)).rejects.toThrow(PortInUseError)
    await closeHttp(a)
  })
})
