// Peer registration proof: the peer's libp2p key (Ed25519 for a tab, RSA for an identity imported from
// RL Swarm's swarm.pem, secp256k1 too) signs a digest that binds the chain, the coordinator contract, the
// wallet and the peer id (SwarmCoordinator.registrationDigest), in the registration signing domain
// (src/core/identity/signing-domains.ts: tag, then the digest). The contract stores the proof without
// checking it; every reader checks it here and treats failures as unverified.
import { publicKeyFromProtobuf, publicKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { peerIdFromPublicKey } from '@libp2p/peer-id'
import { domainSigner, verifyInDomain } from '../../core/identity/signing-domains.ts'
import { bytesToHex, encodeAbiParameters, getAddress, hexToBytes, isAddress, isHex, keccak256 } from 'viem'
import type { Address, Hex } from 'viem'

export const REGISTRATION_DOMAIN = 'tabswarm-register-v1'

export interface RegistrationContext {
  chainId: number | bigint
  /** the SwarmCoordinator's address */
  coordinator: Address
  /** the wallet that sends registerPeer */
  wallet: Address
}

/** What registerPeer(peerId, publicKey, signature) takes. */
export interface RegistrationProof {
  peerId: string
  /** the peer's public key in libp2p's protobuf encoding (the bytes its peer id is derived from) */
  publicKey: Hex
  /** the peer key's signature over the registration digest */
  signature: Hex
}

/** A claim as read from the chain, with the context it was made in. */
export type RegistrationClaim = RegistrationProof & RegistrationContext

/** keccak256(abi.encode("tabswarm-register-v1", chainId, coordinator, wallet, peerId)) — same as the contract. */
export function registrationDigest(ctx: RegistrationContext & { peerId: string }): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'string' }, { type: 'uint256' }, { type: 'address' }, { type: 'address' }, { type: 'string' }],
      [REGISTRATION_DOMAIN, BigInt(ctx.chainId), ctx.coordinator, ctx.wallet, ctx.peerId],
    ),
  )
}

/** Signs the registration digest with the peer's libp2p key, in the registration signing domain. */
export async function signRegistration(
  privateKey: PrivateKey,
  ctx: RegistrationContext,
): Promise<RegistrationProof> {
  const peerId = peerIdFromPublicKey(privateKey.publicKey).toString()
  const digest = hexToBytes(registrationDigest({ ...ctx, peerId }))
  const signature = await domainSigner(privateKey).signIn('registration', digest)
  return {
    peerId,
    publicKey: bytesToHex(publicKeyToProtobuf(privateKey.publicKey)),
    signature: bytesToHex(signature),
  }
}

/**
 * Why the claim is not proven, as a sentence for the UI, or null when it is: the public key must be the
 * peer id's own key and the signature must verify over the digest for this chain, coordinator and
 * wallet. Never throws.
 */
export async function registrationProblem(claim: RegistrationClaim): Promise<string | null> {
  if (!isHex(claim.publicKey) || !isHex(claim.signature)) return 'the public key or signature is not hex'
  if (!isAddress(claim.coordinator) || !isAddress(claim.wallet))
    return 'the wallet or coordinator is not an address'
  let publicKey: ReturnType<typeof publicKeyFromProtobuf>
  try {
    publicKey = publicKeyFromProtobuf(hexToBytes(claim.publicKey))
  } catch {
    return 'the public key is not a libp2p key'
  }
  if (peerIdFromPublicKey(publicKey).toString() !== claim.peerId)
    return `the public key is not the key of ${claim.peerId} (someone else's key)`
  const digest = registrationDigest({
    chainId: claim.chainId,
    coordinator: getAddress(claim.coordinator),
    wallet: getAddress(claim.wallet),
    peerId: claim.peerId,
  })
  return (await verifyInDomain(publicKey, 'registration', hexToBytes(digest), hexToBytes(claim.signature)))
    ? null
    : `the peer key's signature does not hold for this wallet, chain ${claim.chainId} and coordinator (forged, or replayed from another wallet or chain)`
}

/** True when the claim is proven (registrationProblem finds nothing). Never throws. */
export async function verifyRegistration(claim: RegistrationClaim): Promise<boolean> {
  return (await registrationProblem(claim)) === null
}
