// Counts relayed connections and the bytes the relay forwards for them.
//
// circuit-relay-v2's server pipes two streams together for each relayed connection: the dialer's HOP
// stream (inbound to the relay) and a STOP stream the relay opens to the destination. It exposes no
// counters, so this observes those streams from outside:
//  - STOP streams come through an outbound stream middleware (`node.use`): one per relayed connection
//    the relay set up towards a destination that holds a reservation;
//  - HOP streams come through the server's own handler, re-registered behind a wrapper, because libp2p
//    3.3.11 appends the handler to a protocol's stored middleware list on every inbound stream, so an
//    inbound middleware would run the handler once more for each stream seen before.
// Bytes are counted where the relay writes them (`send`), which sees every forwarded byte once without
// adding a 'message' listener (a listener changes when a stream hands data to its reader). The first
// write on each stream is the circuit protocol's own status/connect message and is not counted.
import { RELAY_V2_HOP_CODEC, RELAY_V2_STOP_CODEC } from '@libp2p/circuit-relay-v2'
import type { CircuitRelayService } from '@libp2p/circuit-relay-v2'
import type { Connection, Libp2p, Stream } from '@libp2p/interface'

export interface RelayedTraffic {
  /** relayed connections whose STOP stream is still open */
  active: number
  /** relayed connections set up since start */
  total: number
  /** payload bytes forwarded in both directions since start */
  bytes: number
}

/** The part of circuit-relay-v2's CircuitRelayServer this needs; public on that class. */
interface HopHandler {
  onHop(stream: Stream, connection: Connection): Promise<void>
}

const hasHopHandler = (service: object): service is HopHandler =>
  typeof (service as Partial<HopHandler>).onHop === 'function'

/**
 * Starts counting on a started node whose `relayService` is a circuitRelayServer. Returns a function that
 * reads the counters.
 */
export async function meterRelayedTraffic(
  node: Libp2p,
  relayService: CircuitRelayService,
): Promise<() => RelayedTraffic> {
  if (!hasHopHandler(relayService)) {
    throw new Error(
      'the circuit relay server has no onHop method (circuit-relay-v2 changed?); cannot meter relayed traffic',
    )
  }
  const traffic: RelayedTraffic = { active: 0, total: 0, bytes: 0 }

  const countWritesAfterFirst = (stream: Stream): void => {
    const send = stream.send.bind(stream)
    let writes = 0
    stream.send = (data) => {
      if (writes++ > 0) traffic.bytes += data.byteLength
      return send(data)
    }
  }

  node.use(RELAY_V2_STOP_CODEC, (stream, connection, next) => {
    traffic.total++
    traffic.active++
    stream.addEventListener('close', () => traffic.active--, { once: true })
    countWritesAfterFirst(stream)
    next(stream, connection)
  })

  // Same options the server registers with (it leaves the stream limits at libp2p's defaults).
  await node.handle(
    RELAY_V2_HOP_CODEC,
    (stream, connection) => {
      countWritesAfterFirst(stream)
      return relayService.onHop(stream, connection)
    },
    { force: true, runOnLimitedConnection: true },
  )

  return () => ({ ...traffic })
}
