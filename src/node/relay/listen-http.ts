// Binding a Node HTTP server to exactly the port asked for: a port in use is an error that names the
// port, never a silent move to another one (tabs and swarm configs point at fixed addresses).
import type { Server } from 'node:http'

export class PortInUseError extends Error {
  override name = 'PortInUseError'
  constructor(
    /** what wanted the port, e.g. 'relay', 'relay HTTP', 'app server' */
    readonly what: string,
    readonly host: string,
    readonly port: number,
  ) {
    super(`${what} port ${port} on ${host} is already in use`)
  }
}

/** Starts `server` listening on host:port; resolves with the bound port (useful when `port` is 0). */
export function listenHttp(server: Server, what: string, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(what, host, port) : err)
    }
    server.once('error', onError)
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', onError)
      const address = server.address()
      resolve(typeof address === 'object' && address !== null ? address.port : port)
    })
  })
}

/**
 * How long requests already in flight get to finish when a server closes. A tab that polls every
 * 500 ms keeps its keep-alive connection busy forever, so waiting for it to go idle never ends.
 */
export const CLOSE_GRACE_MS = 1_000

/**
 * Stops accepting connections, closes idle keep-alive ones at once and busy ones after
 * CLOSE_GRACE_MS, so the port is free when this resolves.
 */
export function closeHttp(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve()
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
    server.close((err) => {
      clearTimeout(force)
      if (err) reject(err)
      else resolve()
    })
    server.closeIdleConnections()
  })
}

/** A host for URLs: wildcard binds are reached on loopback, IPv6 literals need brackets. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}
