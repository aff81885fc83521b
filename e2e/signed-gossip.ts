// Gossipsub messages signed by any key and handed to chosen peers, for the hostile peer. gossipsub's own
// publish signs with the node's key and floods every subscriber; an attacker with many free identities
// signs with each of them over one connection, and one that wants its messages forwarded by an honest
// peer sends them to that peer alone. The signature is gossipsub's StrictSign one (the protobuf message
// without signature and key, after "libp2p-pubsub:"), so receivers check it as they check any other.
import type { GossipSub } from '@libp2p/gossipsub'
import { RPC } from '@libp2p/gossipsub/message'
import { publicKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'

const SIGN_PREFIX = new TextEncoder().encode('libp2p-pubsub:')

// Seqnos count up from the clock in nanoseconds, as gossipsub's own do: new message ids on every run.
let lastSeqno = BigInt(Date.now()) * 1_000_000n

/** A message of `topic` carrying `data`, signed by `key`; each call gets its own seqno (a new message id). */
export async function signedMessage(key: PrivateKey, topic: string, data: Uint8Array): Promise<RPC.Message> {
  const seqno = new Uint8Array(8)
  new DataView(seqno.buffer).setBigUint64(0, ++lastSeqno)
  const unsigned: RPC.Message = { from: peerIdFromPrivateKey(key).toMultihash().bytes, data, seqno, topic }
  const encoded = RPC.Message.encode(unsigned)
  const toSign = new Uint8Array(SIGN_PREFIX.length + encoded.length)
  toSign.set(SIGN_PREFIX)
  toSign.set(encoded, SIGN_PREFIX.length)
  return { ...unsigned, signature: await key.sign(toSign), key: publicKeyToProtobuf(key.publicKey) }
}

/**
 * Sends `message` to `peer` on this node's gossipsub stream to it; false when there is none. Goes through
 * gossipsub's `sendRpc`, which is not part of its typed API (publish cannot choose its recipients).
 */
export function sendTo(pubsub: GossipSub, peer: string, message: RPC.Message): boolean {
  const rpc: RPC = { subscriptions: [], messages: [message] }
  return (pubsub as unknown as { sendRpc(id: string, rpc: RPC): boolean }).sendRpc(peer, rpc)
}
