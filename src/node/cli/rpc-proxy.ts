// Forwards JSON-RPC POSTs from the page to the local chain, so a tab reaches anvil through the app's own
// origin: anvil listens on loopback only, and a tab on another machine of the LAN (or behind the app's
// TLS proxy) could not reach 127.0.0.1:8545 itself. It forwards the standard reads and signed
// transactions of rpc-allowlist.ts only (each element of a batch checked on its own), JSON only, from
// the app's own pages only (request-guards.ts): on --host 0.0.0.0 the LAN and every web page the user
// visits can reach it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { screenRpc } from './rpc-allowlist.ts'
import { readBody, requestProblem } from './request-guards.ts'

/** Larger than any request the app sends (a multicall of a page of reads); bigger ones are refused. */
export const MAX_RPC_REQUEST_BYTES = 1 << 20

function sendJson(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  })
  res.end(text)
}

/** A JSON-RPC error reply (id null: the request may not even have parsed). */
const rpcError = (res: ServerResponse, status: number, message: string, code = -32603): void =>
  sendJson(res, status, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }))

export async function proxyJsonRpc(req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST')
    return rpcError(res, 405, 'JSON-RPC takes POST')
  }
  const problem = requestProblem(req, '/rpc', 'JSON-RPC as application/json')
  if (problem) return rpcError(res, problem.status, problem.message)
  const body = await readBody(req, MAX_RPC_REQUEST_BYTES)
  if (body === undefined) return rpcError(res, 413, `JSON-RPC request over ${MAX_RPC_REQUEST_BYTES} bytes`)
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return rpcError(res, 400, 'the request body is not JSON', -32700)
  }
  const { batch, forward, refused } = screenRpc(parsed)
  if (forward.length === 0) return sendJson(res, 200, JSON.stringify(batch ? refused : refused[0]))

  let reply: Response
  try {
    reply = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(batch ? forward : forward[0]),
    })
  } catch (err) {
    return rpcError(res, 502, `the local chain at ${target} is unreachable (${(err as Error).message})`)
  }
  const text = await reply.text()
  if (refused.length === 0) return sendJson(res, reply.status, text)
  // a batch with refused calls: the chain's answers, then ours (clients match answers by id)
  let answers: unknown
  try {
    answers = JSON.parse(text)
  } catch {
    return rpcError(res, 502, `the local chain at ${target} answered something that is not JSON`)
  }
  const merged = [...(Array.isArray(answers) ? answers : [answers]), ...refused]
  sendJson(res, reply.status, JSON.stringify(merged))
}
