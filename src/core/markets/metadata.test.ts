import { describe, expect, it } from 'vitest'
import { MarketMetadataError, decodeMetadata, encodeMetadata } from './metadata.ts'
import type { MarketMetadataDoc } from './metadata.ts'

const doc: MarketMetadataDoc = {
  question: 'Will the swarm’s pass@1 pass 50 % by round 100?',
  outcomes: ['Yes', 'No'],
  category: 'miscellaneous',
  resolutionCriteria: 'The Train view’s held-out pass@1 at round 100.',
}

describe('market metadata', () => {
  it('round-trips through a data: URI with its content hash', () => {
    const encoded = encodeMetadata(doc)
    expect(encoded.uri.startsWith('data:application/json')).toBe(true)
    expect(encoded.uriContentHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(decodeMetadata(encoded)).toEqual(doc)
  })

  it('refuses a document that does not match its hash', () => {
    const encoded = encodeMetadata(doc)
    const other = encodeMetadata({ ...doc, outcomes: ['No', 'Yes'] })
    expect(() => decodeMetadata({ uri: other.uri, uriContentHash: encoded.uriContentHash })).toThrow(
      'does not match its content hash',
    )
  })

  it.each([
    [{ ...doc, question: ' ' }, 'question'],
    [{ ...doc, outcomes: ['Only'] }, 'outcomes'],
    [{ ...doc, category: 'weather' }, 'category'],
  ])('names the bad field', (bad, field) => {
    expect(() => encodeMetadata(bad as MarketMetadataDoc)).toThrow(MarketMetadataError)
    expect(() => encodeMetadata(bad as MarketMetadataDoc)).toThrow(field)
  })

  it('refuses metadata that is not inline', () => {
    expect(() => decodeMetadata({ uri: 'ipfs://x', uriContentHash: '0x00' })).toThrow(
      'not an inline data: URI',
    )
  })
})
