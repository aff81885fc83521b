// Every signature this app makes with the peer key, by domain. A domain's signed bytes are its tag and
// then its payload, so a signature made in one domain never verifies in another (the tags are prefix-free,
// and none is a prefix of a tag libp2p signs under with the same key). Workers reach the key only through
// the bridge's `sign` op, which takes a domain from this table and a payload of that domain's size: a
// worker can sign a receipt, never bytes of its choosing. Gossip envelopes are not signed here: the main
// thread's gossipsub signs each published message under libp2p's own tag. A new signed message type joins
// this table (and verifies through it).
import type { PrivateKey, PublicKey } from '@libp2p/interface'
import { concatBytes } from '@noble/hashes/utils.js'

export const SIGNING_DOMAINS = {
  /** a receipt's receiptHash (src/core/protocol/receipt.ts); the tag predates this table, so old receipts hold */
  receipt: { tag: 'tabswarm-receipt-v1:', payloadBytes: 32 },
  /** the chain registration digest that binds a wallet to this peer id (src/host/rewards/registration-message.ts) */
  registration: { tag: 'tabswarm-register-v2:', payloadBytes: 32 },
} as const satisfies Record<string, { tag: string; payloadBytes: number }>

export type SigningDomain = keyof typeof SIGNING_DOMAINS

/** Tags libp2p itself signs under with the peer key: gossipsub messages and the noise handshake. */
export const FOREIGN_TAGS: readonly string[] = ['libp2p-pubsub:', 'noise-libp2p-static-key:']

export function isSigningDomain(value: unknown): value is SigningDomain {
  return typeof value === 'string' && Object.hasOwn(SIGNING_DOMAINS, value)
}

/** The bytes a signature in `domain` covers. Throws a RangeError for a payload of the wrong size. */
export function signedBytes(domain: SigningDomain, payload: Uint8Array): Uint8Array {
  const { tag, payloadBytes } = SIGNING_DOMAINS[domain]
  if (payload.byteLength !== payloadBytes)
    throw new RangeError(`a ${domain} signature covers ${payloadBytes} bytes, not ${payload.byteLength}`)
  return concatBytes(new TextEncoder().encode(tag), payload)
}

/** Signs in a domain: the peer key itself on the main thread, the bridge in a worker. */
export interface DomainSigner {
  signIn(domain: SigningDomain, payload: Uint8Array): Promise<Uint8Array>
}

export function domainSigner(key: Pick<PrivateKey, 'sign'>): DomainSigner {
  return {
    signIn: async (domain, payload) => key.sign(signedBytes(domain, payload)),
  }
}

/** Whether `signature` is the key's signature of `payload` in `domain`. Never throws. */
export async function verifyInDomain(
  key: Pick<PublicKey, 'verify'>,
  domain: SigningDomain,
  payload: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    return await key.verify(signedBytes(domain, payload), signature)
  } catch {
    // a signature of the wrong length for the key type, or a payload of the wrong size: not a proof
    return false
  }
}
