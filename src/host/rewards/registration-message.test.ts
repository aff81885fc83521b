import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { bytesToHex, hexToBytes } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  registrationDigest,
  registrationProblem,
  signRegistration,
  verifyRegistration,
} from './registration-message.ts'
import type { RegistrationClaim, RegistrationContext } from './registration-message.ts'

const ctx: RegistrationContext = {
  chainId: 31337,
  coordinator: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  wallet: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
}
const otherWallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

let key: PrivateKey
let claim: RegistrationClaim

beforeAll(async () => {
  key = await generateKeyPair('Ed25519')
  claim = { ...ctx, ...(await signRegistration(key, ctx)) }
})

describe('registration digest', () => {
  it('matches the Solidity vector (contracts/test/SwarmCoordinator.t.sol DIGEST_VECTOR)', () => {
    expect(
      registrationDigest({ ...ctx, peerId: '12D3KooWRkGLz4YbVmrsWK75VjFTs8NvaBu42xhAmQaP4KeJpw1L' }),
    ).toBe('0x5500940b8f25fd882595d1fc101b2a0bfcbab80f28b026424aaa292ff0771fd5')
  })
})

describe('registration proof', () => {
  it('verifies for the chain, coordinator and wallet it was made for', async () => {
    expect(hexToBytes(claim.publicKey)).toHaveLength(36) // protobuf: type + length + 32-byte key
    expect(hexToBytes(claim.signature)).toHaveLength(64)
    expect(claim.peerId).toMatch(/^12D3KooW/)
    expect(await verifyRegistration(claim)).toBe(true)
    // address case does not matter
    expect(await verifyRegistration({ ...claim, wallet: ctx.wallet.toLowerCase() as `0x${string}` })).toBe(
      true,
    )
  })

  it('is refused for another chain id', async () => {
    expect(await verifyRegistration({ ...claim, chainId: 685685 })).toBe(false)
  })

  it('is refused for another coordinator address', async () => {
    expect(
      await verifyRegistration({ ...claim, coordinator: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' }),
    ).toBe(false)
  })

  it('is refused for another wallet', async () => {
    expect(await verifyRegistration({ ...claim, wallet: otherWallet })).toBe(false)
  })

  it('is refused when the signature is tampered with', async () => {
    const sig = hexToBytes(claim.signature)
    sig[10] = (sig[10] ?? 0) ^ 1
    expect(await verifyRegistration({ ...claim, signature: bytesToHex(sig) })).toBe(false)
  })

  it('is refused when the key is not the peer id’s own key (forged claim)', async () => {
    const other = await generateKeyPair('Ed25519')
    const forged = await signRegistration(other, ctx)
    // someone else's valid signature, presented for our peer id
    expect(await verifyRegistration({ ...ctx, ...forged, peerId: claim.peerId })).toBe(false)
  })

  it('is refused when malformed instead of throwing', async () => {
    expect(await verifyRegistration({ ...claim, signature: '0x1234' })).toBe(false)
    expect(await verifyRegistration({ ...claim, publicKey: '0x' })).toBe(false)
    expect(await verifyRegistration({ ...claim, peerId: 'not-a-peer-id' })).toBe(false)
  })

  it('says why a proof does not hold', async () => {
    expect(await registrationProblem(claim)).toBeNull()
    expect(await registrationProblem({ ...claim, chainId: 685685 })).toMatch(
      /signature does not hold for this wallet, chain 685685 and coordinator/,
    )
    const forged = await signRegistration(await generateKeyPair('Ed25519'), ctx)
    expect(await registrationProblem({ ...ctx, ...forged, peerId: claim.peerId })).toBe(
      `the public key is not the key of ${claim.peerId} (someone else's key)`,
    )
    expect(await registrationProblem({ ...claim, publicKey: '0x0102' })).toBe(
      'the public key is not a libp2p key',
    )
    expect(await registrationProblem({ ...claim, signature: 'nope' as `0x${string}` })).toBe(
      'the public key or signature is not hex',
    )
  })

  it.each(['RSA', 'secp256k1'] as const)(
    'works with %s peer keys (identities imported from swarm.pem)',
    async (type) => {
      const other = type === 'RSA' ? await generateKeyPair('RSA', 2048) : await generateKeyPair(type)
      const proof = { ...ctx, ...(await signRegistration(other, ctx)) }
      expect(await verifyRegistration(proof)).toBe(true)
      expect(await verifyRegistration({ ...proof, chainId: 1 })).toBe(false)
      expect(hexToBytes(proof.publicKey).length).toBeLessThanOrEqual(1024) // the contract's MAX_PUBLIC_KEY_LENGTH
    },
  )
})
