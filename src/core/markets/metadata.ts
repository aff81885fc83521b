// A market's metadata (Delphi's `metadata`: question, outcome labels, category, resolution criteria)
// and how the local chain carries it: a `data:` URI holding the JSON, with `uriContentHash` =
// keccak256 of the JSON bytes, so a market needs no metadata server and a reader can check that the
// document is the one the creator committed to.
import { isHex, keccak256, stringToHex } from 'viem'
import type { Hex } from 'viem'

/** Delphi's categories (research/delphi.md §1). */
export const MARKET_CATEGORIES = [
  'crypto',
  'culture',
  'economics',
  'miscellaneous',
  'politics',
  'sports',
] as const
export type MarketCategory = (typeof MARKET_CATEGORIES)[number]

export interface MarketMetadataDoc {
  question: string
  /** outcomes[i] is the label of outcome i */
  outcomes: string[]
  category: MarketCategory
  /** how the oracle decides, in words */
  resolutionCriteria: string
}

export interface EncodedMetadata {
  uri: string
  uriContentHash: Hex
}

const DATA_PREFIX = 'data:application/json;charset=utf-8,'

export class MarketMetadataError extends Error {
  override name = 'MarketMetadataError'
}

export function checkMetadata(doc: unknown): MarketMetadataDoc {
  const d = doc as Partial<MarketMetadataDoc> | null
  if (typeof d !== 'object' || d === null) throw new MarketMetadataError('market metadata must be an object')
  if (typeof d.question !== 'string' || d.question.trim() === '')
    throw new MarketMetadataError('market metadata: question must be a non-empty string')
  if (
    !Array.isArray(d.outcomes) ||
    d.outcomes.length < 2 ||
    !d.outcomes.every((o) => typeof o === 'string' && o !== '')
  )
    throw new MarketMetadataError('market metadata: outcomes must be at least two non-empty labels')
  if (!MARKET_CATEGORIES.includes(d.category as MarketCategory))
    throw new MarketMetadataError(`market metadata: category must be one of ${MARKET_CATEGORIES.join(', ')}`)
  if (typeof d.resolutionCriteria !== 'string')
    throw new MarketMetadataError('market metadata: resolutionCriteria must be a string')
  return {
    question: d.question,
    outcomes: [...d.outcomes],
    category: d.category as MarketCategory,
    resolutionCriteria: d.resolutionCriteria,
  }
}

export function encodeMetadata(doc: MarketMetadataDoc): EncodedMetadata {
  const json = JSON.stringify(checkMetadata(doc))
  return { uri: DATA_PREFIX + encodeURIComponent(json), uriContentHash: keccak256(stringToHex(json)) }
}

/** The document of a `data:` metadata URI; throws when it is not one or its hash does not match. */
export function decodeMetadata(encoded: EncodedMetadata): MarketMetadataDoc {
  if (!encoded.uri.startsWith(DATA_PREFIX))
    throw new MarketMetadataError(`market metadata is not an inline data: URI (${encoded.uri.slice(0, 40)}…)`)
  const json = decodeURIComponent(encoded.uri.slice(DATA_PREFIX.length))
  if (!isHex(encoded.uriContentHash) || keccak256(stringToHex(json)) !== encoded.uriContentHash.toLowerCase())
    throw new MarketMetadataError('market metadata does not match its content hash')
  return checkMetadata(JSON.parse(json))
}
