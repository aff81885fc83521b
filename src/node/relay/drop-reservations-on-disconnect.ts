// circuit-relay-v2 keeps a reservation until its TTL (2 h) even after the peer has gone, so tabs that
// closed keep holding reservation slots and the reservation count overstates who can be reached. A
// reservation is useless without a connection to its peer (the relay forwards over that connection), so
// drop it when the peer's last connection closes, as go-libp2p's relay does.
import type { Libp2p, PeerId } from '@libp2p/interface'
import type { CircuitRelayService } from '@libp2p/circuit-relay-v2'

/** Starts dropping reservations of disconnected peers; returns a function that stops it. */
export function dropReservationsOnDisconnect(node: Libp2p, relay: CircuitRelayService): () => void {
  const onDisconnect = (event: CustomEvent<PeerId>): void => {
    const reservation = relay.reservations.get(event.detail)
    if (reservation === undefined) return
    // Stop the expiry timer first: its listener deletes whatever reservation the peer holds when it
    // fires, which would be the one made after a reconnect.
    reservation.signal.clear()
    relay.reservations.delete(event.detail)
  }
  node.addEventListener('peer:disconnect', onDisconnect)
  return () => node.removeEventListener('peer:disconnect', onDisconnect)
}
