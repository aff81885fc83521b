import { createServer, request } from 'node:http'
import type { Server } from 'node:http'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PortInUseError } from '../relay/listen-http.ts'
import { startAppServer } from './app-server.ts'
import type { AppServer } from './app-server.ts'
import { MAX_RPC_REQUEST_BYTES } from './rpc-proxy.ts'
import { TEST_SWARM_CONFIG } from './test-swarm-config.ts'

// Fixed port for this file only (19xxx range), so parallel test files never collide.
const PORT = 19220

const config = TEST_SWARM_CONFIG

let dir: string
let app: AppServer

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'app-server-'))
  const root = join(dir, 'dist')
  await mkdir(join(root, 'assets'), { recursive: true })
  await writeFile(join(root, 'index.html'), '<!doctype html><title>app</title>')
  await writeFile(join(root, 'assets', 'main-abc123.js'), 'export {}')
  await writeFile(join(root, 'ort.wasm'), new Uint8Array([0, 97, 115, 109]))
  await writeFile(join(dir, 'secret.txt'), 'do not serve')
  app = await startAppServer({ root, port: PORT, swarmConfig: config })
})

afterAll(async () => {
  await app?.close()
  await rm(dir, { recursive: true, force: true })
})

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw GET: fetch() would normalise ../ segments away before they reach the server. */
const get = (path: string, method = 'GET'): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: PORT, path, method }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })

describe('startAppServer', () => {
  it('reports its URL', () => {
    expect(app.url).toBe(`http://127.0.0.1:${PORT}/`)
  })

  it('serves index.html at / and for client-side routes', async () => {
    for (const path of ['/', '/markets/42', '/verify?receipt=abc']) {
      const reply = await get(path)
      expect(reply.status, path).toBe(200)
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(reply.headers['cache-control']).toBe('no-cache')
      expect(reply.body).toContain('<title>app</title>')
    }
  })

  it('serves the swarm config, never cached', async () => {
    const reply = await get('/swarm.json')
    expect(reply.status).toBe(200)
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(reply.headers['cache-control']).toBe('no-store')
    expect(JSON.parse(reply.body)).toEqual(config)
  })

  it('serves files with their content type, hashed assets cached for long', async () => {
    const wasm = await get('/ort.wasm')
    expect(wasm.status).toBe(200)
    expect(wasm.headers['content-type']).toBe('application/wasm')
    expect(wasm.headers['content-length']).toBe('4')
    const js = await get('/assets/main-abc123.js')
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const head = await get('/assets/main-abc123.js', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
  })

  it('answers 404 for a missing file with an extension', async () => {
    expect((await get('/assets/missing-123.js')).status).toBe(404)
    expect((await get('/model.onnx')).status).toBe(404)
  })

  it('refuses paths outside its root', async () => {
    for (const path of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2F..%2Fsecret.txt',
      '/%2e%2e/secret.txt',
    ]) {
      const reply = await get(path)
      expect(reply.body, path).not.toContain('do not serve')
      expect([403, 404], path).toContain(reply.status)
    }
    expect((await get('/..%2fsecret.txt')).status).toBe(403)
    expect((await get('/%E0%A4%A')).status).toBe(400)
  })

  it('refuses methods other than GET and HEAD', async () => {
    expect((await get('/', 'POST')).status).toBe(405)
  })

  it('refuses a port in use with a clear error', async () => {
    const second = startAppServer({ root: dir, port: PORT, swarmConfig: config })
    await expect(second).rejects.toThrow(PortInUseError)
    await expect(second).rejects.toThrow(`app server port ${PORT} on 127.0.0.1 is already in use`)
  })
})

describe('the /rpc proxy to the local chain', () => {
  const PROXY_PORT = 19221
  const CHAIN_PORT = 19222
  const rpcUrl = `http://127.0.0.1:${CHAIN_PORT}`
  let chain: Server | undefined
  let proxied: AppServer

  beforeAll(async () => {
    proxied = await startAppServer({
      root: dir,
      port: PROXY_PORT,
      swarmConfig: config,
      deployment: { rpcUrl, chainId: 31337 },
    })
  })
  afterAll(async () => {
    await proxied?.close()
  })

  const post = (body: string) =>
    fetch(`http://127.0.0.1:${PROXY_PORT}/rpc`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    })

  it('serves the deployment with the proxy as its RPC URL', async () => {
    const res = await fetch(`http://127.0.0.1:${PROXY_PORT}/deployment.json`)
    expect(await res.json()).toEqual({ rpcUrl: '/rpc', chainId: 31337 })
  })

  it('answers a JSON-RPC error when the chain is down', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}')
    expect(res.status).toBe(502)
    const reply = (await res.json()) as { error: { message: string } }
    expect(reply.error.message).toContain(`the local chain at ${rpcUrl} is unreachable`)
  })

  it('forwards requests to the chain and refuses oversized ones', async () => {
    chain = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: number }
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x7a69' }))
      })
    })
    await new Promise<void>((resolve) => chain!.listen(CHAIN_PORT, '127.0.0.1', resolve))
    try {
      const res = await post('{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}')
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, result: '0x7a69' })
      const big = await post(JSON.stringify({ pad: 'x'.repeat(MAX_RPC_REQUEST_BYTES) }))
      expect(big.status).toBe(413)
      expect((await fetch(`http://127.0.0.1:${PROXY_PORT}/rpc`)).status).toBe(405)
    } finally {
      await new Promise((resolve) => chain!.close(resolve))
    }
  })
})

describe('the /rpc proxy forwards standard reads and signed transactions only', () => {
  const APP_PORT = 19224
  const CHAIN_PORT = 19225
  const appOrigin = `http://127.0.0.1:${APP_PORT}`
  let chain: Server
  let guarded: AppServer
  /** what reached the chain, one method per request element */
  let seen: string[] = []

  beforeAll(async () => {
    chain = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        // what a real chain would do with it does not matter here: only that it arrived
        let parsed: unknown
        try {
          parsed = JSON.parse(body)
        } catch {
          parsed = { id: null, method: '<not JSON>' }
        }
        const answer = (element: unknown) => {
          const { id, method } = (element ?? {}) as { id?: unknown; method?: unknown }
          seen.push(String(method))
          return { jsonrpc: '2.0', id, result: `answer to ${String(method)}` }
        }
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)))
      })
    })
    await new Promise<void>((resolve) => chain.listen(CHAIN_PORT, '127.0.0.1', resolve))
    guarded = await startAppServer({
      root: dir,
      port: APP_PORT,
      swarmConfig: config,
      deployment: { rpcUrl: `http://127.0.0.1:${CHAIN_PORT}`, chainId: 31337 },
    })
  })
  afterAll(async () => {
    await guarded?.close()
    await new Promise((resolve) => chain?.close(resolve))
  })

  const call = (method: string, id = 1) => ({ jsonrpc: '2.0', id, method, params: [] })
  const post = (body: unknown, headers: Record<string, string> = {}) => {
    seen = []
    return fetch(`${appOrigin}/rpc`, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    })
  }

  /** What viem and wagmi in the app (and an injected wallet such as MetaMask) read and send. */
  const STANDARD = [
    'eth_chainId',
    'eth_blockNumber',
    'eth_call',
    'eth_estimateGas',
    'eth_fillTransaction',
    'eth_createAccessList',
    'eth_getBalance',
    'eth_getCode',
    'eth_getStorageAt',
    'eth_getTransactionCount',
    'eth_getLogs',
    'eth_getTransactionReceipt',
    'eth_getTransactionByHash',
    'eth_getBlockByNumber',
    'eth_getBlockByHash',
    'eth_gasPrice',
    'eth_maxPriorityFeePerGas',
    'eth_feeHistory',
    'eth_blobBaseFee',
    'eth_sendRawTransaction',
    'net_version',
    'web3_clientVersion',
  ]

  it('forwards every standard read and eth_sendRawTransaction, from the app and from Node', async () => {
    for (const method of STANDARD) {
      const res = await post(call(method, 3), { origin: appOrigin })
      expect(await res.json(), method).toEqual({ jsonrpc: '2.0', id: 3, result: `answer to ${method}` })
    }
    // no Origin header (a script, curl, the e2e from Node): the method allowlist still applies
    expect(await (await post(call('eth_chainId'))).json()).toMatchObject({ result: 'answer to eth_chainId' })
    expect(
      await (await post(call('eth_chainId'), { 'content-type': 'application/json; charset=utf-8' })).json(),
    ).toMatchObject({ result: 'answer to eth_chainId' })
  })

  it('refuses anvil_*, evm_*, unlocked-account signing and anything else, and never forwards them', async () => {
    for (const method of [
      'anvil_setBalance',
      'anvil_setCode',
      'anvil_setStorageAt',
      'anvil_reset',
      'anvil_impersonateAccount',
      'evm_setNextBlockTimestamp',
      'evm_mine',
      'eth_sendTransaction',
      'eth_sign',
      'eth_signTransaction',
      'eth_signTypedData_v4',
      'personal_sign',
      'eth_accounts',
      'eth_newFilter',
      'debug_traceTransaction',
      'hardhat_setBalance',
    ]) {
      const res = await post(call(method, 9))
      expect(res.status, method).toBe(200)
      const reply = (await res.json()) as { id: number; error: { code: number; message: string } }
      expect(reply.id, method).toBe(9)
      expect(reply.error.code, method).toBe(-32601)
      expect(reply.error.message, method).toBe(
        `this app server's /rpc does not forward ${method}: only standard reads and eth_sendRawTransaction`,
      )
      expect(seen, method).toEqual([])
    }
  })

  it('checks each element of a batch: allowed ones are answered, refused ones get their own error', async () => {
    const res = await post([call('eth_chainId', 1), call('anvil_setBalance', 2), call('eth_blockNumber', 3)])
    const replies = (await res.json()) as { id: number; result?: string; error?: { code: number } }[]
    expect(seen).toEqual(['eth_chainId', 'eth_blockNumber'])
    const byId = new Map(replies.map((r) => [r.id, r]))
    expect(replies).toHaveLength(3)
    expect(byId.get(1)?.result).toBe('answer to eth_chainId')
    expect(byId.get(2)?.error?.code).toBe(-32601)
    expect(byId.get(3)?.result).toBe('answer to eth_blockNumber')
    // a batch of refused calls only never reaches the chain
    const refused = (await (await post([call('anvil_reset', 4), 'junk'])).json()) as { error: unknown }[]
    expect(seen).toEqual([])
    expect(refused).toHaveLength(2)
    expect(refused.every((r) => r.error)).toBe(true)
  })

  it('refuses a body not sent as application/json (a form or text/plain POST from any web page)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const res = await post(call('eth_chainId'), { 'content-type': type })
      expect(res.status, type).toBe(415)
      const reply = (await res.json()) as { error: { message: string } }
      expect(reply.error.message).toBe(`/rpc takes JSON-RPC as application/json, not ${type}`)
      expect(seen).toEqual([])
    }
  })

  it('refuses a request from a page of another origin', async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:1', 'null']) {
      const res = await post(call('eth_chainId'), { origin })
      expect(res.status, origin).toBe(403)
      const reply = (await res.json()) as { error: { message: string } }
      expect(reply.error.message).toBe(`/rpc answers the app's own pages only, not a page from ${origin}`)
      expect(seen).toEqual([])
    }
  })

  it('refuses a body that is not JSON', async () => {
    const res = await post('{not json')
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700)
    expect(seen).toEqual([])
  })
})
