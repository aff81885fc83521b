// The presence protocol: announce ourselves on the presence topic at a steady beat, keep a table of the
// peers heard announcing, and report that table (throttled) to whoever shows it. Runs in the peer
// worker, whose timers keep beating while the tab is hidden.
import { type SwarmConfig } from '../../core/config/swarm-config.ts'
import { roundAt } from '../../core/learning/round-clock.ts'
import type { BridgeClient, GossipMessage } from './bridge-client.ts'
import { decodeEnvelope, encodeEnvelope, PROTOCOL_VERSION } from '../../core/protocol/envelope.ts'
import {
  makePresenceBody,
  validatePresenceBody,
  type Capabilities,
  type PresenceBody,
  type PresencePeer,
  type PresenceState,
} from '../../core/protocol/presence.ts'
import { topicFor } from '../../core/protocol/topics.ts'

/**
 * Time between our presence messages. Short enough that a new tab shows up on the others' screens
 * within a few seconds; long enough that 1000 peers make ~330 small messages per second swarm-wide.
 */
export const PRESENCE_INTERVAL_MS = 3_000
/** A peer silent this long is dropped: five missed presences, so one or two lost messages do not flap it. */
export const PEER_TIMEOUT_MS = 15_000
/** Least time between two state reports, so a busy swarm does not flood the main thread with posts. */
export const STATE_INTERVAL_MS = 250

export interface PresenceServiceOptions {
  bridge: Pick<BridgeClient, 'subscribe' | 'unsubscribe' | 'publish' | 'on'>
  config: SwarmConfig
  swarmId: string
  self: { peerId: string; name: string }
  appVersion: string
  capabilities: Capabilities
  /** the name a peer id must announce (its animal name); a presence with another name is ignored */
  nameOf: (peerId: string) => string
  onState: (state: PresenceState) => void
  /** ms since the Unix epoch; Date.now unless a test sets it */
  now?: () => number
}

export interface PresenceService {
  /** subscribes to the presence topic, publishes the first presence and starts the beat; rejects if subscribing fails */
  start(): Promise<void>
  /** stops publishing; peers are still heard and timed out */
  pause(): void
  /** publishes at once and on every beat again */
  resume(): void
  /** publishes a leaving presence (when started), then stops for good */
  leave(): Promise<void>
}

export function createPresenceService(opts: PresenceServiceOptions): PresenceService {
  const { bridge, config, swarmId, self, nameOf, onState, now = Date.now } = opts
  const topic = topicFor(swarmId, 'presence')
  const presence = makePresenceBody({
    name: self.name,
    appVersion: opts.appVersion,
    capabilities: opts.capabilities,
  })
  const peers = new Map<string, PresencePeer>()
  let round = roundAt(config, now())
  let presenceSent = 0
  let started = false
  let paused = false
  let stopped = false
  let beat: ReturnType<typeof setInterval> | undefined
  let unlisten: (() => void) | undefined
  let reportTimer: ReturnType<typeof setTimeout> | undefined
  let lastReport = -Infinity

  const report = (): void => {
    reportTimer = undefined
    lastReport = now()
    // Peer records are replaced, never mutated, so a shallow copy is a stable snapshot.
    onState({ round, peers: Object.fromEntries(peers), presenceSent })
  }
  const changed = (): void => {
    if (stopped || reportTimer !== undefined) return
    // Even when due now, report on a timer so changes made in the same turn go out as one report.
    reportTimer = setTimeout(report, Math.max(0, lastReport + STATE_INTERVAL_MS - now()))
  }

  const publish = async (body: PresenceBody): Promise<void> => {
    const ts = now()
    const data = encodeEnvelope({
      v: PROTOCOL_VERSION,
      swarmId,
      round: roundAt(config, ts),
      from: self.peerId,
      ts,
      kind: 'presence',
      body,
    })
    try {
      await bridge.publish(topic, data)
    } catch {
      // Publishing fails while no peer is subscribed yet or the node is restarting; the next beat retries.
      return
    }
    presenceSent++
    changed()
  }

  const receive = (msg: GossipMessage): void => {
    if (stopped || msg.topic !== topic || msg.from === self.peerId) return
    // The main thread's validator already judged the message; decoding again keeps this module safe on its own.
    const decoded = decodeEnvelope(msg.data)
    if (!decoded.ok) return
    const { envelope } = decoded
    if (envelope.kind !== 'presence' || envelope.swarmId !== swarmId || envelope.from !== msg.from) return
    const body = validatePresenceBody(envelope.body)
    if (typeof body === 'string' || body.name !== nameOf(msg.from)) return
    if (body.leaving) {
      if (peers.delete(msg.from)) changed()
      return
    }
    const t = now()
    const known = peers.get(msg.from)
    peers.set(msg.from, {
      peerId: msg.from,
      name: body.name,
      appVersion: body.appVersion,
      capabilities: body.capabilities,
      firstSeen: known?.firstSeen ?? t,
      lastSeen: t,
      presenceCount: (known?.presenceCount ?? 0) + 1,
    })
    changed()
  }

  // Each beat also moves the round and drops silent peers, so both are at most one beat late.
  const onBeat = (): void => {
    const t = now()
    const r = roundAt(config, t)
    if (r !== round) {
      round = r
      changed()
    }
    for (const [id, peer] of peers) {
      if (t - peer.lastSeen > PEER_TIMEOUT_MS) {
        peers.delete(id)
        changed()
      }
    }
    if (!paused) void publish(presence)
  }

  return {
    async start() {
      if (started || stopped) return
      started = true
      unlisten = bridge.on('message', receive)
      await bridge.subscribe(topic)
      if (stopped) return
      beat = setInterval(onBeat, PRESENCE_INTERVAL_MS)
      changed()
      if (!paused) await publish(presence)
    },
    pause() {
      paused = true
    },
    resume() {
      if (!paused) return
      paused = false
      if (beat !== undefined) void publish(presence)
    },
    async leave() {
      if (stopped) return
      stopped = true
      clearInterval(beat)
      clearTimeout(reportTimer)
      unlisten?.()
      if (!started) return
      await publish({ ...presence, leaving: true })
      await bridge.unsubscribe(topic).catch(() => {
        // The node is going away with the tab; an unsubscribe it cannot deliver changes nothing.
      })
    },
  }
}
