// Rollout sharing over gossipsub, through the bridge to the main-thread libp2p node: the SwarmComm a tab
// uses where the headless peers use createMemoryHub. Messages travel in the same signed envelope as
// presence. The main thread's gossip validator has judged every message before it reaches the worker;
// decoding again keeps this module safe on its own, and a handler that throws cannot break delivery.
import type { BridgeClient, GossipMessage } from './bridge-client.ts'
import { decodeEnvelope, encodeEnvelope, PROTOCOL_VERSION } from '../../core/protocol/envelope.ts'
import type { RolloutsHandler, SwarmComm } from '../../core/learning/memory-comm.ts'
import { topicFor, type GossipKind } from '../../core/protocol/topics.ts'

export interface Libp2pCommOptions {
  bridge: Pick<BridgeClient, 'subscribe' | 'unsubscribe' | 'publish' | 'on'>
  swarmId: string
  peerId: string
  /** ms since the Unix epoch; Date.now unless a test sets it */
  now?: () => number
}

export interface Libp2pComm extends SwarmComm {
  /**
   * Subscribes to the rollouts and receipts topics (gossipsub forwards a topic only between its
   * subscribers, so every learning peer carries the swarm's receipts); rejects when the node refuses.
   */
  start(): Promise<void>
  /** publishes any kind's body in a signed envelope (receipts go out this way) */
  publish(kind: GossipKind, round: number, body: unknown): Promise<void>
  stop(): Promise<void>
}

export function createLibp2pComm(opts: Libp2pCommOptions): Libp2pComm {
  const { bridge, swarmId, peerId, now = Date.now } = opts
  const topic = topicFor(swarmId, 'rollouts')
  const topics = [topic, topicFor(swarmId, 'receipts')]
  const handlers = new Set<RolloutsHandler>()

  const receive = (msg: GossipMessage): void => {
    if (msg.topic !== topic || msg.from === peerId) return
    const decoded = decodeEnvelope(msg.data)
    if (!decoded.ok) return
    const { envelope } = decoded
    if (envelope.kind !== 'rollouts' || envelope.swarmId !== swarmId || envelope.from !== msg.from) return
    for (const handler of handlers) {
      try {
        handler(envelope.from, envelope.round, envelope.body)
      } catch {
        // one handler's bug must not keep the message from the others, nor reach the bridge
      }
    }
  }
  let unlisten: (() => void) | undefined

  const publish = async (kind: GossipKind, round: number, body: unknown): Promise<void> => {
    const data = encodeEnvelope({ v: PROTOCOL_VERSION, swarmId, round, from: peerId, ts: now(), kind, body })
    await bridge.publish(topicFor(swarmId, kind), data)
  }

  return {
    peerId,
    async start() {
      unlisten ??= bridge.on('message', receive)
      await Promise.all(topics.map((t) => bridge.subscribe(t)))
    },
    publishRollouts: (round, body) => publish('rollouts', round, body),
    publish,
    onRollouts(handler) {
      handlers.add(handler)
      return () => handlers.delete(handler)
    },
    async stop() {
      unlisten?.()
      unlisten = undefined
      handlers.clear()
      await Promise.all(
        topics.map((t) =>
          bridge.unsubscribe(t).catch(() => {
            // the node is going away with the tab; an unsubscribe it cannot deliver changes nothing
          }),
        ),
      )
    },
  }
}
