// Starts the tab's network: the libp2p node, the relay keeper, the dialer, gossip validation on every
// swarm topic, RTT pings, stats — and attaches workers through the bridge.
import type { Connection, PrivateKey } from '@libp2p/interface'
import { TopicValidatorResult } from '@libp2p/gossipsub'
import type { SwarmConfig } from '../../core/config/swarm-config.ts'
import { GOSSIP_KINDS, topicFor } from '../../core/protocol/topics.ts'
import type { Envelope } from '../../core/protocol/envelope.ts'
import type { RelayState, Topology, TopologyPeer } from '../../peer/peer/bridge-protocol.ts'
import { serveBridge, type BridgeHost } from './bridge-host.ts'
import { createBrowserNode, type BrowserNode } from './create-browser-node.ts'
import { dataPathAddr, isDirect, transportOf } from './connection-kind.ts'
import { createGossipGate, type GossipCheck } from './gossip-gate.ts'
import { createNetStats, type NetStatsCollector } from './net-stats.ts'
import { startPeerDialer } from './peer-dialer.ts'
import { isVouched, relayVouchers } from './dial-vouch.ts'
import { startRelayKeeper } from './relay-keeper.ts'
import { PING_INTERVAL_MS } from './constants.ts'
import { domainSigner } from '../../core/identity/signing-domains.ts'

interface GossipInternals {
  getScore(peerId: string): number
  getMeshPeers(topic: string): string[]
}

export interface StartNetworkParameters {
  privateKey: PrivateKey
  config: SwarmConfig
  swarmId: string
  /** the swarm's gossip validator (src/core/protocol/gossip-validator.ts) */
  check: GossipCheck
  onRelayState: (state: RelayState) => void
  /** a message passed validation */
  onEnvelope?: (envelope: Envelope, from: string) => void
}

export interface Network {
  node: BrowserNode
  peerId: string
  stats: NetStatsCollector
  attachWorker(port: MessagePort): BridgeHost
  topology(): Promise<Topology>
  hangUp(peer: string): Promise<void>
  stop(): Promise<void>
}

export async function startNetwork(p: StartNetworkParameters): Promise<Network> {
  const topics = GOSSIP_KINDS.map((k) => topicFor(p.swarmId, k))
  const stats = createNetStats()
  const gate = createGossipGate({
    check: p.check,
    stats,
    onEnvelope: p.onEnvelope,
    hangUp: (peer) => void hangUp(peer),
  })
  const isBlocked = gate.isBlocked
  // The gater needs the dial rule before the relay keeper exists: until then no circuit is vouched for.
  let isRelay: (peerId: string) => boolean = () => false
  const node: BrowserNode = await createBrowserNode({
    privateKey: p.privateKey,
    iceServers: p.config.iceServers,
    topics,
    isBlocked,
    mayDial: (addr) => isVouched(addr, vouchers),
  })
  const vouchers = relayVouchers(
    p.config.relays,
    (id) => isRelay(id),
    () => node.getConnections(),
  )
  const peerId = node.peerId.toString()
  const hosts = new Set<BridgeHost>()
  const rtt = new Map<string, number>()
  const pubsub = node.services.pubsub
  // The GossipSub class has these; its exported interface leaves them out.
  const gossipInternals = pubsub as unknown as GossipInternals

  const verdicts = {
    accept: TopicValidatorResult.Accept,
    ignore: TopicValidatorResult.Ignore,
    reject: TopicValidatorResult.Reject,
  }
  for (const topic of topics) {
    pubsub.topicValidators.set(topic, (source, msg) => {
      const signer = msg.type === 'signed' ? msg.from.toString() : null
      return verdicts[gate.judge(topic, msg.data, signer, source.toString())]
    })
  }

  pubsub.addEventListener('gossipsub:message', (e) => {
    const { msg } = e.detail
    if (msg.type !== 'signed' || !topics.includes(msg.topic)) return
    const from = msg.from.toString()
    stats.received(from, msg.data.byteLength)
    const event = {
      event: 'message' as const,
      topic: msg.topic,
      from,
      data: msg.data,
      receivedAt: Date.now(),
    }
    for (const h of hosts) h.deliver(event)
  })

  const relays = startRelayKeeper({ node, relays: p.config.relays, onState: p.onRelayState })
  isRelay = (id) => relays.relayIds().has(id)
  // User-timing marks (visible in devtools and read by bench/swarm-net.ts): when this page first had
  // the relay and its first direct peer.
  const markFirst = (name: string, when: (c: Connection) => boolean) => {
    const onOpen = (e: CustomEvent<Connection>): void => {
      if (!when(e.detail)) return
      performance.mark(name)
      node.removeEventListener('connection:open', onOpen)
    }
    node.addEventListener('connection:open', onOpen)
  }
  markFirst('tabswarm:relay-connected', (c) => relays.relayIds().has(c.remotePeer.toString()))
  markFirst(
    'tabswarm:first-direct-peer',
    (c) => isDirect(c) && !relays.relayIds().has(c.remotePeer.toString()),
  )

  const dialer = startPeerDialer({ node, relayAddrs: p.config.relays, isRelay, isBlocked })

  const pinger = setInterval(() => {
    for (const c of node.getConnections()) {
      if (!isDirect(c)) continue
      const id = c.remotePeer.toString()
      node.services.ping.ping(c.remotePeer, { signal: AbortSignal.timeout(PING_INTERVAL_MS) }).then(
        (ms) => rtt.set(id, ms),
        () => rtt.delete(id),
      )
    }
  }, PING_INTERVAL_MS)
  node.addEventListener('peer:disconnect', (e) => rtt.delete(e.detail.toString()))

  const hangUp = async (peer: string): Promise<void> => {
    const conns = node.getConnections().filter((c) => c.remotePeer.toString() === peer)
    await Promise.all(conns.map((c) => c.close().catch(() => c.abort(new Error('hang up')))))
  }

  const topology = async (): Promise<Topology> => {
    const byPeer = new Map<string, TopologyPeer>()
    for (const c of node.getConnections()) {
      const id = c.remotePeer.toString()
      if (relays.relayIds().has(id)) continue
      const direct = isDirect(c)
      const prev = byPeer.get(id)
      const peer: TopologyPeer = prev ?? {
        id,
        addrs: [],
        connection: 'none',
        transport: transportOf(c),
        inbound: c.direction === 'inbound',
        rttMs: rtt.get(id) ?? null,
        score: gossipInternals.getScore(id),
      }
      peer.addrs.push(dataPathAddr(c))
      if (direct && peer.connection !== 'direct') {
        peer.connection = 'direct'
        peer.transport = transportOf(c)
        peer.inbound = c.direction === 'inbound'
      } else if (!direct && peer.connection === 'none') peer.connection = 'relayed'
      byPeer.set(id, peer)
    }
    const mesh: Record<string, string[]> = {}
    for (const t of pubsub.getTopics()) mesh[t] = gossipInternals.getMeshPeers(t)
    return {
      peerId,
      addrs: node.getMultiaddrs().map(String),
      relay: relays.state(),
      relays: [...relays.relayIds()],
      peers: [...byPeer.values()],
      mesh,
    }
  }

  return {
    node,
    peerId,
    stats,
    attachWorker(port) {
      const host = serveBridge(port, {
        node,
        topology,
        signer: domainSigner(p.privateKey),
        onPublished: (recipients, bytes) => stats.sent(recipients, bytes),
      })
      hosts.add(host)
      return host
    },
    topology,
    hangUp,
    async stop() {
      clearInterval(pinger)
      dialer.stop()
      relays.stop()
      for (const h of hosts) h.close()
      hosts.clear()
      await node.stop()
    },
  }
}
