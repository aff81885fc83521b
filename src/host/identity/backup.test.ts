import { generateKeyPair, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { beforeAll, describe, expect, it } from 'vitest'
import type { PrivateKey, RSAPrivateKey } from '@libp2p/interface'
import { animalName } from '../../core/identity/animal.ts'
import { exportBackup, parseIdentityFile } from './backup.ts'

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)
const json = (bytes: Uint8Array): Record<string, unknown> => JSON.parse(new TextDecoder().decode(bytes))

// A throwaway RSA-2048 swarm.pem made outside this project (Python `cryptography`: protobuf
// PrivateKey{RSA, PKCS#1 DER}); its peer id (sha2-256 multihash of PublicKey{RSA, SPKI DER}, base58btc)
// and animal name were computed there too.
const PYTHON_SWARM_PEM = [
  'CAASqAkwggSkAgEAAoIBAQC0ndzdPQ0a/TLgD0aQxX+PSpKg6EoZ2tog5w2rf4Y6rh09fhKEUyXgp2dWq/VsqAUycHVgVWaq',
  'Kd81653Uda6iwj/DPlJgauAIUniFaeuAK1Ct8nex0ER2T/B4KN1hYl7BGfXkyem8Y6zNPqk3XpIRbMG6Yz50CXlD9JpmhGpm',
  'OciDuu1h0T1ojDc9tklhsSIsCTpEHaan15xn9nm+eIzyBZdG9GeEfsTQOLqO6EytKEnlj/ssDSxTsLk/Q72Bh6rGsDLQ6ZvZ',
  'VgTgV6VgVnDL1wZBwL7/1N74497nVfNGoZQLobsq5vSse2Iz0tmCOblytj6PFqI8QSuxDgcOp8Q7AgMBAAECggEATNBWfkDY',
  'sgG9AU191VQpS+eLNKOV4CkTW6roRWeWzp3+EYjslxpFoaWQbWv0lKFglHL/eFjZsMTeCTCLjy/9dXrnY0G+BwNtBB0O5K6H',
  'WZsSVOgpv5WziB23R2MZw7DyW22PBh5ZKaW6eA+OJ94wgPif64UJqo/c4unEQJVQKujw0h1SyWcZFXZ4tPOQwfsdOc7FqyJu',
  'pHmthDfuAN5YeIzrQlz97vgIG7pm0CH4uoyWEdRMpBC8aIAbT/U5P+CFGXlBooiCRssnSKU5ZoQ1fIpPWniGRIwD4tdHqowY',
  'pKg1a61cHl8bhpNc4edaRQLciZGNQ0yVPEkkBxQtpkMAAQKBgQDn333Kh6l5MSpzVsMs0zh6PG/1btj8YGGOs50wqTj9x8vu',
  'PGf/RblT/sJneCw7+WVKADs5fQjRU9SvHyk7Rczhl6C7PsrYA3sT0TfljyN6BC24QlBXpaXpoMTPy8+p9u8ZeZLprNPZRfQ5',
  'PhxySRUSJSfg0aAs8KsQpXSIe+swAQKBgQDHaQgvuP/FbHAJdIEFI6vN8+WxDL5nM/yAWcXd3sK03qO6iSZqfJXojda0kmRl',
  'rPPuRoWPfouNUjAQcaj5EzoBYHQH6/cK0n+y3HSsBFy8k+8lsAJ5A5q/a9un7TLJAq8BlrwoFvRNUFj7y6TNr54Gtg96pWsQ',
  'ZqQ177/OkbO0OwKBgQDWyawYg/p1DRoppWE+kJpsgLelPn05q34zViZyAQ+N5hn+IW6khM3cBM3IUwWGuMse9X/nDO+yGFmX',
  'ruHeyhWzk2WMjeoQl4jXHqMMvr86M8y2Npd92TALbqVhZ4aCBwANNRTl6PaE+cv1ipeHNjOSj2CVXRlnB7kuvlVoaIHAAQKB',
  'gQCzW9p8KjcMGQvwxTSjLcGDPoPzqtW7t/u+aoDZnlqdGsBDsMa38xVXFfTvd9kLxvOk9xN8zMKyuyD2OXVViyCaSmozEd+j',
  'gVBQzY+3hTjweVMaH+Upeb9/u4DX2zbZrCtDD5Rvrq3QuJtA55t1UieeO7VSiGTzXI8I4HsyTsVHLwKBgDzMX0KcxsRHoMrM',
  'kM8diQ62vIxY7JmLyM74TNRtVPj7Q/z8qwofDALpl6ES4qMl7WKwSGLEfElZtVYALnM53Ws1lxmZoQtsPD9i6ohKc2xe+aDx',
  'LIU4G572wjYrpr+X92goKn6hYX2kDczPvh9Mcv1TClcw2ZM38+5GRMqBe50N',
].join('')

let ed: PrivateKey
let rsa: RSAPrivateKey
beforeAll(async () => {
  ed = await generateKeyPair('Ed25519')
  rsa = await generateKeyPair('RSA', 2048)
})

describe('exportBackup', () => {
  it('writes the tabswarm-identity JSON', () => {
    const peerId = peerIdFromPrivateKey(ed).toString()
    expect(json(exportBackup({ privateKey: ed }))).toEqual({
      format: 'tabswarm-identity',
      version: 1,
      peerId,
      name: animalName(peerId),
      keyType: 'Ed25519',
      privateKey: Buffer.from(privateKeyToProtobuf(ed)).toString('base64'),
    })
  })
})

describe('parseIdentityFile', () => {
  it('round-trips a backup with the same peer id and key', () => {
    const parsed = parseIdentityFile(exportBackup({ privateKey: ed }))
    expect(parsed.format).toBe('tabswarm-backup')
    expect(parsed.peerId).toBe(peerIdFromPrivateKey(ed).toString())
    expect(parsed.privateKey.equals(ed)).toBe(true)
  })

  it('round-trips an RSA backup', () => {
    const parsed = parseIdentityFile(exportBackup({ privateKey: rsa }))
    expect(parsed.peerId).toBe(peerIdFromPrivateKey(rsa).toString())
  })

  it('accepts unpadded base64 and leading whitespace', () => {
    const backup = json(exportBackup({ privateKey: ed }))
    backup.privateKey = String(backup.privateKey).replace(/=+$/, '')
    expect(parseIdentityFile(utf8(`\n  ${JSON.stringify(backup)}`)).peerId).toBe(backup.peerId)
  })

  it("imports RL Swarm's swarm.pem (protobuf RSA key) with its Qm… peer id", () => {
    const swarmPem = privateKeyToProtobuf(rsa)
    const parsed = parseIdentityFile(swarmPem)
    expect(parsed.format).toBe('libp2p-key')
    expect(parsed.privateKey.type).toBe('RSA')
    expect(parsed.peerId).toBe(peerIdFromPrivateKey(rsa).toString())
    expect(parsed.peerId).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/)
  })

  it('reads a swarm.pem written by another implementation with the peer id and name RL Swarm shows', () => {
    const parsed = parseIdentityFile(new Uint8Array(Buffer.from(PYTHON_SWARM_PEM, 'base64')))
    expect(parsed.peerId).toBe('QmXgt45DqrBhupXYxjhStTvyEPFo8vigqKnVepzKjiZ594')
    expect(animalName(parsed.peerId)).toBe('yapping long chameleon')
  })

  it('imports a protobuf Ed25519 key file too', () => {
    expect(parseIdentityFile(privateKeyToProtobuf(ed)).peerId).toBe(peerIdFromPrivateKey(ed).toString())
  })

  it('refuses a backup whose key does not belong to the stated peer id', () => {
    const backup = json(exportBackup({ privateKey: ed }))
    backup.peerId = peerIdFromPrivateKey(rsa).toString()
    expect(() => parseIdentityFile(utf8(JSON.stringify(backup)))).toThrow(
      /inconsistent: its key belongs to peer/,
    )
  })

  it('refuses a backup whose keyType contradicts the key', () => {
    const backup = json(exportBackup({ privateKey: ed }))
    backup.keyType = 'RSA'
    expect(() => parseIdentityFile(utf8(JSON.stringify(backup)))).toThrow(
      /says "RSA" but holds a Ed25519 key/,
    )
  })

  it.each<[string, () => Uint8Array, RegExp]>([
    ['an empty file', () => new Uint8Array(), /file is empty/],
    ['random bytes', () => new Uint8Array(200).fill(7), /not a libp2p private key/],
    ['a truncated swarm.pem', () => privateKeyToProtobuf(rsa).slice(0, 600), /truncated, damaged/],
    ['a swarm.pem short by one byte', () => privateKeyToProtobuf(rsa).slice(0, -1), /truncated, damaged/],
    ['a truncated backup', () => exportBackup({ privateKey: ed }).slice(0, 80), /does not parse/],
    ['other JSON', () => utf8('{"hello": "world"}'), /not a tabswarm identity backup/],
    ['a future backup version', () => utf8('{"format": "tabswarm-identity", "version": 2}'), /version 2/],
    ['a backup without key', () => utf8('{"format": "tabswarm-identity", "version": 1}'), /incomplete/],
    [
      'a backup with a non-base64 key',
      () => utf8('{"format":"tabswarm-identity","version":1,"peerId":"x","privateKey":"!!"}'),
      /not base64/,
    ],
    [
      'a backup with a damaged key',
      () => utf8('{"format":"tabswarm-identity","version":1,"peerId":"x","privateKey":"CAESQA=="}'),
      /damaged: "privateKey" is not a libp2p key/,
    ],
    [
      'PEM text',
      () => utf8('-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n'),
      /PEM text/,
    ],
    ['plain text', () => utf8('hello world'), /not a libp2p private key/],
  ])('refuses %s with a message saying why', (_what, bytes, reason) => {
    expect(() => parseIdentityFile(bytes())).toThrow(reason)
  })

  it('says which files it reads when given something else', () => {
    const expected = /Expected a tabswarm identity backup \(\.json\) or an RL Swarm swarm\.pem/
    for (const bytes of [
      new Uint8Array(),
      new Uint8Array(64).fill(255),
      utf8('{"a":1}'),
      utf8('-----BEGIN'),
    ]) {
      expect(() => parseIdentityFile(bytes)).toThrow(expected)
    }
  })
})
