// The relay's HTTP side: /health for liveness probes ({"ok": true}, nothing more: probes are often
// public) and /metrics (JSON, or Prometheus text with ?format=prometheus) for the operator. Read-only,
// and without CORS headers: a web page on another origin (any site a user on the LAN visits) cannot
// read them; scrapers and curl do not need CORS.
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { closeHttp, listenHttp, urlHost } from './listen-http.ts'
import { toPrometheusText } from './relay-metrics.ts'
import type { RelayMetrics } from './relay-metrics.ts'

export interface RelayHttp {
  /** e.g. http://127.0.0.1:9091 */
  url: string
  close(): Promise<void>
}

/** Metrics change every request; a cached copy would mislead. */
const NO_STORE = { 'cache-control': 'no-store' }

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { ...NO_STORE, 'content-type': contentType })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

const sendJson = (res: ServerResponse, status: number, value: unknown): void =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value))

function route(req: IncomingMessage, res: ServerResponse, metrics: () => RelayMetrics): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD')
    return sendJson(res, 405, { error: 'method not allowed' })
  }
  const url = new URL(req.url ?? '/', 'http://relay')
  if (url.pathname === '/health') return sendJson(res, 200, { ok: true })
  if (url.pathname === '/metrics') {
    if (url.searchParams.get('format') === 'prometheus') {
      return send(res, 200, 'text/plain; version=0.0.4; charset=utf-8', toPrometheusText(metrics()))
    }
    return sendJson(res, 200, metrics())
  }
  sendJson(res, 404, { error: 'not found', endpoints: ['/health', '/metrics', '/metrics?format=prometheus'] })
}

export async function startRelayHttp(
  host: string,
  port: number,
  metrics: () => RelayMetrics,
): Promise<RelayHttp> {
  const server = createServer((req, res) => route(req, res, metrics))
  const bound = await listenHttp(server, 'relay HTTP', host, port)
  return { url: `http://${urlHost(host)}:${bound}`, close: () => closeHttp(server) }
}
