// The tab's libp2p node (main thread only: RTCPeerConnection does not exist in workers).
// WebSockets reach the relay, circuit relay v2 carries WebRTC signalling, and peers then talk over
// direct WebRTC; gossipsub carries the swarm topics.
import { createLibp2p, type Libp2p } from 'libp2p'
import { webSockets } from '@libp2p/websockets'
import { webRTC } from '@libp2p/webrtc'
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2'
import { noise } from '@libp2p/noise'
import { yamux } from '@libp2p/yamux'
import { identify } from '@libp2p/identify'
import { ping, type Ping } from '@libp2p/ping'
import { gossipsub, type GossipSub } from '@libp2p/gossipsub'
import { createPeerScoreParams, createTopicScoreParams } from '@libp2p/gossipsub/score'
import { pubsubPeerDiscovery } from '@libp2p/pubsub-peer-discovery'
import type { PrivateKey } from '@libp2p/interface'
import type { IceServer } from '../../core/config/swarm-config.ts'
import { DISCOVERY_INTERVAL_MS } from './constants.ts'
import { installInitChannelFix } from './webrtc-init-race.ts'

export type BrowserNode = Libp2p<{ pubsub: GossipSub; ping: Ping; identify: unknown }>

export interface CreateBrowserNodeParameters {
  privateKey: PrivateKey
  iceServers: IceServer[]
  /** swarm topics: each gets score parameters that punish invalid messages */
  topics: string[]
  /** peers refused at connection time (misbehaving senders) */
  isBlocked: (peerId: string) => boolean
  /** addresses this node may dial at all (dial-vouch.ts): whatever asks for a dial, the rest are refused */
  mayDial: (addr: string) => boolean
}

/** Gossipsub scores invalid messages by the square of their (decaying) count: weight × count². At −0.2,
 * 20 invalid messages on a topic of weight 1 reach the graylist threshold (−0.2 × 20² = −80), after
 * which gossipsub ignores the peer's RPCs without parsing them; BLOCK_AFTER_REJECTS then hangs up. */
const INVALID_MESSAGE_WEIGHT = -0.2
export const GRAYLIST_THRESHOLD = -80
const INVALID_MESSAGE_DECAY = 0.9

export async function createBrowserNode(p: CreateBrowserNodeParameters): Promise<BrowserNode> {
  installInitChannelFix()
  const topicScores = Object.fromEntries(
    p.topics.map((t) => [
      t,
      createTopicScoreParams({
        topicWeight: 1,
        // Mesh-delivery penalties assume steady traffic; presence is sparse, so they stay off.
        meshMessageDeliveriesWeight: 0,
        meshFailurePenaltyWeight: 0,
        invalidMessageDeliveriesWeight: INVALID_MESSAGE_WEIGHT,
        invalidMessageDeliveriesDecay: INVALID_MESSAGE_DECAY,
      }),
    ]),
  )
  return createLibp2p({
    privateKey: p.privateKey,
    addresses: { listen: ['/p2p-circuit', '/webrtc'] },
    transports: [
      webSockets(),
      webRTC({ rtcConfiguration: { iceServers: p.iceServers as RTCIceServer[] } }),
      circuitRelayTransport(),
    ],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    // The browser default refuses loopback/private addresses and plain ws://, which a local swarm
    // needs; instead an address is dialed only when the swarm's relays vouch for it, and misbehaving
    // peers are refused here.
    connectionGater: {
      denyDialMultiaddr: (addr) => !p.mayDial(addr.toString()),
      denyDialPeer: (peer) => p.isBlocked(peer.toString()),
      denyInboundEncryptedConnection: (peer) => p.isBlocked(peer.toString()),
    },
    peerDiscovery: [pubsubPeerDiscovery({ interval: DISCOVERY_INTERVAL_MS })],
    services: {
      identify: identify(),
      ping: ping(),
      pubsub: gossipsub({
        allowPublishToZeroTopicPeers: true,
        emitSelf: false,
        // Tabs behind one NAT (or on one machine) share an IP; colocation says nothing about them.
        scoreParams: createPeerScoreParams({ topics: topicScores, IPColocationFactorWeight: 0 }),
        scoreThresholds: {
          gossipThreshold: -20,
          publishThreshold: -40,
          graylistThreshold: GRAYLIST_THRESHOLD,
        },
      }),
    },
  })
}
