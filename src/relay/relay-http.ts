// The relay's HTTP side: /health for liveness probes and /metrics (JSON, or Prometheus text with
// ?format=prometheus). Read-only and open to any origin, so a dashboard tab can poll it.
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

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'content-type',
}

/** Metrics change every request; a cached copy would mislead. */
const NO_STORE = { 'cache-control': 'no-store' }

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { ...CORS_HEADERS, ...NO_STORE, 'content-type': contentType })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

const sendJson = (res: ServerResponse, status: number, value: unknown): void =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value))

function route(req: IncomingMessage, res: ServerResponse, metrics: () => RelayMetrics): void {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, CORS_HEADERS)
    return void res.end()
  }
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendJson(res, 405, { error: 'method not allowed' })
  const url = new URL(req.url ?? '/', 'http://relay')
  if (url.pathname === '/health') {
    const m = metrics()
    return sendJson(res, 200, { ok: true, peerId: m.peerId, uptimeS: m.uptimeS, connections: m.connections })
  }
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
