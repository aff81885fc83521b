// Peer registration proof: the peer's libp2p key (Ed25519 for a tab, RSA for an identity imported from
// RL Swarm's swarm.pem, secp256k1 too) signs a digest that binds the chain, the coordinator contract, the
// wallet and the peer id (SwarmCoordinator.registrationDigest). The contract stores the proof without
// checking it; every reader checks it here and treats failures as unverified.
import { publicKeyFromProtobuf, publicKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { peerIdFromPublicKey } from '@libp2p/peer-id'
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

/** Signs the registration digest with the peer's libp2p key. */
export async function signRegistration(
  privateKey: PrivateKey,
  ctx: RegistrationContext,
): Promise<RegistrationProof> {
  const peerId = peerIdFromPublicKey(privateKey.publicKey).toString()
  const digest = hexToBytes(registrationDigest({ ...ctx, peerId }))
  const signature = await privateKey.sign(digest)
  return {
    peerId,
    publicKey: bytesToHex(publicKeyToProtobuf(privateKey.publicKey)),
    signature: bytesToHex(signature),
  }
}

/**
 * True when the claim is proven: the public key is the peer id's own key and the signature verifies
 * over the digest for this chain, coordinator and wallet. Never throws; malformed → false.
 */
export async function verifyRegistration(claim: RegistrationClaim): Promise<boolean> {
  try {
    if (!isHex(claim.publicKey) || !isHex(claim.signature)) return false
    if (!isAddress(claim.coordinator) || !isAddress(claim.wallet)) return false
    const publicKey = publicKeyFromProtobuf(hexToBytes(claim.publicKey))
    if (peerIdFromPublicKey(publicKey).toString() !== claim.peerId) return false
    const digest = registrationDigest({
      chainId: claim.chainId,
      coordinator: getAddress(claim.coordinator),
      wallet: getAddress(claim.wallet),
      peerId: claim.peerId,
    })
    return await publicKey.verify(hexToBytes(digest), hexToBytes(claim.signature))
  } catch {
    return false
  }
}
