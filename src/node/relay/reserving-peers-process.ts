// Child process of spawnReservingPeers: `reserving-peers-process.ts <relay multiaddr> <count>`. Starts
// <count> peers, each connected to the relay with a circuit reservation, answers the parent's commands
// over IPC and exits when told to stop or when the parent goes away.
import { createLibp2p } from 'libp2p'
import type { Libp2p } from '@libp2p/interface'
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2'
import { gossipsub } from '@libp2p/gossipsub'
import { identify } from '@libp2p/identify'
import { noise } from '@libp2p/noise'
import { pubsubPeerDiscovery } from '@libp2p/pubsub-peer-discovery'
import { webSockets } from '@libp2p/websockets'
import { yamux } from '@libp2p/yamux'
import { multiaddr } from '@multiformats/multiaddr'

export type ParentCommand =
  | { type: 'echo'; from: number; to: number; bytes: number }
  | { type: 'discovered'; peer: number }
  | { type: 'stop' }

export type ChildReply =
  | { type: 'ready'; peerIds: string[]; circuitAddrs: string[] }
  | { type: 'echoed' }
  | { type: 'discovered'; peerIds: string[] }
  | { type: 'error'; message: string }

const ECHO_PROTOCOL = '/tabswarm/test/echo/1.0.0'

/** Adverts every second, as tabs do, so discovery through the relay shows within a test's patience. */
const DISCOVERY_INTERVAL_MS = 1_000

/** Peer ids each node learned from discovery adverts. */
const discovered = new Map<Libp2p, Set<string>>()

/** Resolves once the message is handed to the IPC channel, so exiting afterwards does not lose it. */
const reply = (message: ChildReply): Promise<void> =>
  new Promise((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()))

const circuitAddrOf = (node: Libp2p): string | undefined =>
  node
    .getMultiaddrs()
    .map(String)
    .find((a) => a.includes('/p2p-circuit'))

async function startPeer(relayAddr: string): Promise<Libp2p> {
  const node = await createLibp2p({
    addresses: { listen: ['/p2p-circuit'] },
    transports: [webSockets(), circuitRelayTransport()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    peerDiscovery: [pubsubPeerDiscovery({ interval: DISCOVERY_INTERVAL_MS })],
    services: { identify: identify(), pubsub: gossipsub({ allowPublishToZeroTopicPeers: true }) },
  })
  const seen = new Set<string>()
  discovered.set(node, seen)
  node.addEventListener('peer:discovery', (event) => seen.add(event.detail.id.toString()))
  await node.handle(
    ECHO_PROTOCOL,
    (stream) => {
      stream.addEventListener('message', (event) => void stream.send(event.data))
      stream.addEventListener('remoteCloseWrite', () => void stream.close())
    },
    { runOnLimitedConnection: true },
  )
  const reserved = new Promise<void>((resolve) => {
    const check = (): void => {
      if (circuitAddrOf(node) === undefined) return
      node.removeEventListener('self:peer:update', check)
      resolve()
    }
    node.addEventListener('self:peer:update', check)
    check()
  })
  await node.dial(multiaddr(relayAddr))
  await reserved
  return node
}

async function echo(from: Libp2p, to: Libp2p, bytes: number): Promise<void> {
  const target = circuitAddrOf(to)
  if (target === undefined) throw new Error('target peer has no circuit address')
  const stream = await from.dialProtocol(multiaddr(target), ECHO_PROTOCOL, { runOnLimitedConnection: true })
  let received = 0
  const echoed = new Promise<void>((resolve) => {
    stream.addEventListener('message', (event) => {
      received += event.data.byteLength
      if (received >= bytes) resolve()
    })
  })
  const chunk = 1024
  for (let sent = 0; sent < bytes; sent += chunk) {
    if (!stream.send(new Uint8Array(Math.min(chunk, bytes - sent)))) await stream.onDrain()
  }
  await echoed
  await stream.close()
}

async function main(): Promise<void> {
  const [relayAddr, countArg] = process.argv.slice(2)
  const count = Number(countArg)
  if (relayAddr === undefined || !Number.isInteger(count) || count < 1) {
    throw new Error('usage: reserving-peers-process.ts <relay multiaddr> <count>')
  }
  const nodes = await Promise.all(Array.from({ length: count }, () => startPeer(relayAddr)))
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((n) => n.stop()))
    process.exit(0)
  }
  process.on('disconnect', () => void stop())
  process.on('message', (command: ParentCommand) => {
    if (command.type === 'stop') return void stop()
    if (command.type === 'discovered') {
      const node = nodes[command.peer]
      return void reply({ type: 'discovered', peerIds: node ? [...(discovered.get(node) ?? [])] : [] })
    }
    const from = nodes[command.from]
    const to = nodes[command.to]
    if (from === undefined || to === undefined) return void reply({ type: 'error', message: 'no such peer' })
    void echo(from, to, command.bytes).then(
      () => reply({ type: 'echoed' }),
      (err: Error) => reply({ type: 'error', message: err.message }),
    )
  })
  await reply({
    type: 'ready',
    peerIds: nodes.map((n) => n.peerId.toString()),
    circuitAddrs: nodes.map((n) => circuitAddrOf(n) ?? ''),
  })
}

main().catch(async (err: Error) => {
  await reply({ type: 'error', message: err.message })
  process.exit(1)
})
