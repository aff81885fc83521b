// Delphi's verifiable AI settlement as the UI shows it (research/delphi.md §2): a verifiable market is
// settled by a model run under Gensyn's reproducible execution environment (REE), whose receipt
// anyone can validate or re-run; `proof` is that receipt, or where to find it. The proof string comes
// from a remote API, so it becomes a link only when it is an http(s) URL — never javascript:, data:
// or any other scheme a click would run or open.

/** What Delphi's REST API says of a market's settlement; local-chain markets have none. */
export interface MarketSettlement {
  verifiable: boolean
  /** the settlement proof as the API sends it; null when there is none (yet) */
  proof: string | null
}

/** How to offer a proof: a link to it, the receipt document itself, or plain text. */
export type SettlementProof =
  { kind: 'url'; href: string } | { kind: 'receipt'; document: string } | { kind: 'text'; text: string }

/** The schemes a proof link may have; anything else is shown as text. */
const LINK_PROTOCOLS: readonly string[] = ['http:', 'https:']

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
  } catch {
    return false
  }
}

/** Classifies a market's proof string; null when it has none. A receipt keeps its exact bytes. */
export function classifyProof(proof: string | null): SettlementProof | null {
  const text = proof?.trim() ?? ''
  if (text === '') return null
  if (text.startsWith('{') && isJsonObject(text)) return { kind: 'receipt', document: proof! }
  const href = linkHref(text)
  return href ? { kind: 'url', href } : { kind: 'text', text }
}

/** The URL as a link target when it is an http(s) URL; null for any other text or scheme. */
function linkHref(text: string): string | null {
  try {
    const url = new URL(text)
    return LINK_PROTOCOLS.includes(url.protocol) ? url.href : null
  } catch {
    return null
  }
}
