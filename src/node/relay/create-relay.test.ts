import { createServer } from 'node:net'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRelay } from './create-relay.ts'
import type { Relay } from './create-relay.ts'
import { PortInUseError } from './listen-http.ts'
import type { RelayMetrics } from './relay-metrics.ts'
import { spawnReservingPeers } from './reserving-peers.ts'
import type { ReservingPeers } from './reserving-peers.ts'
import { lanAddress } from './lan-address.ts'

// Fixed ports for this file only (19xxx range), so parallel test files never collide.
const PORT = 19210
const HTTP_PORT = 19211

let relay: Relay | undefined
let peers: ReservingPeers | undefined
afterEach(async () => {
  await peers?.stop()
  await relay?.close()
  peers = undefined
  relay = undefined
})

const getJson = async <T>(path: string): Promise<{ status: number; body: T; headers: Headers }> => {
  const res = await fetch(`http://127.0.0.1:${HTTP_PORT}${path}`)
  return { status: res.status, body: (await res.json()) as T, headers: res.headers }
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 50))
  }
}

const portIsFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })

describe('createRelay', () => {
  it('listens on WebSockets and reports its address with /p2p/<id>', async () => {
    relay = await createRelay({ port: PORT })
    expect(relay.multiaddrs).toEqual([`/ip4/127.0.0.1/tcp/${PORT}/ws/p2p/${relay.peerId}`])
    expect(relay.httpUrl).toBe(`http://127.0.0.1:${HTTP_PORT}`)
  })

  it('gives peers reservations, relays between them and counts it on /metrics', async () => {
    relay = await createRelay({ port: PORT })
    peers = await spawnReservingPeers(relay.multiaddrs[0]!, 2)
    expect(peers.circuitAddrs[0]).toContain(`/p2p/${relay.peerId}/p2p-circuit/p2p/${peers.peerIds[0]}`)

    const before = await getJson<RelayMetrics>('/metrics')
    expect(before.status).toBe(200)
    // for the operator, not for web pages: no CORS
    expect(before.headers.get('access-control-allow-origin')).toBeNull()
    expect(before.body.connectedPeers).toBe(2)
    expect(before.body.reservations).toBe(2)
    expect(before.body.relayedConnections).toEqual({ active: 0, total: 0 })
    expect(before.body.relayedBytes).toBe(0)
    expect(before.body.memory.rss).toBeGreaterThan(before.body.memory.heapUsed)

    const payload = 20_000
    await peers.echo(0, 1, payload)
    const after = relay.metrics()
    expect(after.relayedConnections.total).toBe(1)
    // both directions of the payload plus noise/yamux framing (~5 KB here); counting twice would exceed 80 KB
    expect(after.relayedBytes).toBeGreaterThanOrEqual(2 * payload)
    expect(after.relayedBytes).toBeLessThan(2 * payload + 16_000)
  })

  it('forwards discovery adverts between peers that are connected only to it', async () => {
    relay = await createRelay({ port: PORT })
    peers = await spawnReservingPeers(relay.multiaddrs[0]!, 2)
    const [a, b] = peers.peerIds
    await until(
      async () => (await peers!.discovered(0)).includes(b!) && (await peers!.discovered(1)).includes(a!),
    )
  })

  it('drops a reservation when its peer disconnects', async () => {
    relay = await createRelay({ port: PORT })
    peers = await spawnReservingPeers(relay.multiaddrs[0]!, 1)
    expect(relay.metrics().reservations).toBe(1)
    await peers.stop()
    peers = undefined
    await until(() => relay!.metrics().reservations === 0 && relay!.metrics().connectedPeers === 0)
  })

  it('serves /health with liveness only, and the Prometheus text format, to no other origin', async () => {
    relay = await createRelay({ port: PORT })
    const health = await getJson<unknown>('/health')
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ ok: true })
    expect(health.headers.get('access-control-allow-origin')).toBeNull()
    const prometheus = await fetch(`http://127.0.0.1:${HTTP_PORT}/metrics?format=prometheus`)
    expect(prometheus.headers.get('access-control-allow-origin')).toBeNull()
    const text = await prometheus.text()
    expect(text).toMatch(/^# TYPE tabswarm_relay_reservations gauge\ntabswarm_relay_reservations 0$/m)
    expect((await fetch(`http://127.0.0.1:${HTTP_PORT}/nope`)).status).toBe(404)
    // no CORS preflight is answered either
    const preflight = await fetch(`http://127.0.0.1:${HTTP_PORT}/metrics`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' },
    })
    expect(preflight.status).toBe(405)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('keeps its peer id across restarts with a key file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'relay-key-'))
    try {
      const keyFile = join(dir, 'nested', 'relay.key')
      relay = await createRelay({ port: PORT, keyFile })
      const first = relay.peerId
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600)
      await relay.close()
      relay = await createRelay({ port: PORT, keyFile })
      expect(relay.peerId).toBe(first)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('frees both ports on close', async () => {
    relay = await createRelay({ port: PORT })
    expect(await portIsFree(PORT)).toBe(false)
    await relay.close()
    relay = undefined
    expect(await portIsFree(PORT)).toBe(true)
    expect(await portIsFree(HTTP_PORT)).toBe(true)
  })

  it('says which port is in use', async () => {
    relay = await createRelay({ port: PORT })
    await expect(createRelay({ port: PORT, httpPort: 0 })).rejects.toThrow(PortInUseError)
    await expect(createRelay({ port: PORT + 2, httpPort: HTTP_PORT })).rejects.toThrow(
      `relay HTTP port ${HTTP_PORT} on 127.0.0.1 is already in use`,
    )
    // the failed start must not keep the relay port it did get
    expect(await portIsFree(PORT + 2)).toBe(true)
  })

  it('advertises announce addresses instead of its listen address', async () => {
    relay = await createRelay({ port: PORT, announce: ['/dns4/relay.example.com/tcp/443/wss'] })
    expect(relay.multiaddrs).toEqual([`/dns4/relay.example.com/tcp/443/wss/p2p/${relay.peerId}`])
  })

  const lan = lanAddress()

  it.skipIf(lan === undefined)(
    'caps the reservations one remote address holds, while loopback stays uncapped',
    async () => {
      // a variable, not a literal: the option is new
      const options = { host: '0.0.0.0', port: PORT, maxReservationsPerAddress: 2 }
      relay = await createRelay(options)
      const overLan = `/ip4/${lan}/tcp/${PORT}/ws/p2p/${relay.peerId}`
      peers = await spawnReservingPeers(overLan, 2)
      expect(relay.metrics().reservations).toBe(2)
      // a third peer id from the same address connects, but gets no reservation
      await expect(spawnReservingPeers(overLan, 1, 5_000)).rejects.toThrow()
      expect(relay.metrics().reservations).toBe(2)
      // loopback (this machine, or the TLS proxy in front of the relay) is not capped
      const local = await spawnReservingPeers(`/ip4/127.0.0.1/tcp/${PORT}/ws/p2p/${relay.peerId}`, 3)
      try {
        expect(relay.metrics().reservations).toBe(5)
      } finally {
        await local.stop()
      }
    },
    60_000,
  )
})
