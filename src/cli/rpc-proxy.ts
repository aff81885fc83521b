// Forwards JSON-RPC POSTs from the page to the local chain, so a tab reaches anvil through the app's own
// origin: anvil listens on loopback only, and a tab on another machine of the LAN (or behind the app's
// TLS proxy) could not reach 127.0.0.1:8545 itself.
import type { IncomingMessage, ServerResponse } from 'node:http'

/** Larger than any request the app sends (a multicall of a page of reads); bigger ones are refused. */
export const MAX_RPC_REQUEST_BYTES = 1 << 20

/** A JSON-RPC error reply (id null: the request may not even have parsed). */
function rpcError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message } })
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export async function proxyJsonRpc(req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST')
    return rpcError(res, 405, 'JSON-RPC takes POST')
  }
  const body = await readBody(req, MAX_RPC_REQUEST_BYTES)
  if (body === undefined) return rpcError(res, 413, `JSON-RPC request over ${MAX_RPC_REQUEST_BYTES} bytes`)
  let reply: Response
  try {
    reply = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  } catch (err) {
    return rpcError(res, 502, `the local chain at ${target} is unreachable (${(err as Error).message})`)
  }
  const text = await reply.text()
  res.writeHead(reply.status, {
    'content-type': reply.headers.get('content-type') ?? 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  })
  res.end(text)
}
