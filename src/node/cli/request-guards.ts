// What the app server's POST endpoints (/rpc, /faucet) check before they read a body: JSON only, and
// from the app's own pages only. Any web page the user visits can POST a form or text/plain body to
// a LAN or loopback address without a CORS preflight, and browsers always send an Origin header with
// a POST, so both checks together keep other sites out. Requests with no Origin (curl, scripts, Node)
// come from no web page and pass.
import type { IncomingMessage } from 'node:http'

export interface RequestProblem {
  status: number
  message: string
}

/**
 * Browser extensions (an injected wallet such as MetaMask) fetch the RPC the page gave them from their
 * own origin: the user installed them, so they count as the app's own.
 */
const EXTENSION_PROTOCOLS = new Set(['chrome-extension:', 'moz-extension:', 'safari-web-extension:'])

/** `path` … takes `takes`, e.g. '/rpc' and 'JSON-RPC as application/json'. */
export function requestProblem(req: IncomingMessage, path: string, takes: string): RequestProblem | null {
  const origin = req.headers.origin
  if (origin !== undefined && !isOwnOrigin(origin, req.headers.host))
    return { status: 403, message: `${path} answers the app's own pages only, not a page from ${origin}` }
  const type = req.headers['content-type'] ?? ''
  if (type.split(';')[0]!.trim().toLowerCase() !== 'application/json')
    return { status: 415, message: `${path} takes ${takes}, not ${type || 'a body without a content type'}` }
  return null
}

/** Same origin = the page's origin names the host:port the request was sent to. */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false // 'null' (a sandboxed frame, a file: page) and garbage
  }
  return EXTENSION_PROTOCOLS.has(url.protocol) || (host !== undefined && url.host === host.toLowerCase())
}

/** The body as text; undefined once it grows past `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}
