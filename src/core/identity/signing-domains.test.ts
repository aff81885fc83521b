import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  domainSigner,
  FOREIGN_TAGS,
  SIGNING_DOMAINS,
  signedBytes,
  verifyInDomain,
  type SigningDomain,
} from './signing-domains.ts'

const domains = Object.keys(SIGNING_DOMAINS) as SigningDomain[]
const payload = new Uint8Array(32).map((_, i) => i * 7)

let key: PrivateKey
beforeAll(async () => {
  key = await generateKeyPair('Ed25519')
})

describe('signing domains', () => {
  it('a signature made in one domain verifies in that domain and in no other', async () => {
    expect(domains.length).toBeGreaterThanOrEqual(2)
    const signer = domainSigner(key)
    for (const made of domains) {
      const signature = await signer.signIn(made, payload)
      for (const checked of domains)
        expect(await verifyInDomain(key.publicKey, checked, payload, signature)).toBe(checked === made)
    }
  })

  it('never signs the bare payload: no domain signature verifies over the payload alone', async () => {
    const signer = domainSigner(key)
    for (const d of domains)
      expect(await key.publicKey.verify(payload, await signer.signIn(d, payload))).toBe(false)
  })

  it('has tags that are no prefix of one another nor of the tags libp2p signs under', () => {
    const tags = [...domains.map((d) => SIGNING_DOMAINS[d].tag), ...FOREIGN_TAGS]
    for (const a of tags) for (const b of tags) if (a !== b) expect(b.startsWith(a)).toBe(false)
    expect(new Set(tags).size).toBe(tags.length)
  })

  it('refuses a payload of the wrong length for its domain', async () => {
    for (const d of domains) {
      expect(() => signedBytes(d, new Uint8Array(31))).toThrow(RangeError)
      await expect(domainSigner(key).signIn(d, new Uint8Array(33))).rejects.toThrow(RangeError)
    }
  })
})
