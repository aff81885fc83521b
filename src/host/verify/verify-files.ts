// Reading the Verify view's files: size cap, JSON parse, and the verdicts in words.
import { animalName } from '../../core/identity/animal.ts'
import type { Receipt } from '../../core/protocol/receipt-schema.ts'
import type { VerifyVerdict } from '../../compute/proof/verify.ts'

/** Files above this are refused before they are read (a receipt is a few KB, an inputs file a few MB). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024

export type Loaded =
  { readonly name: string; readonly value: unknown } | { readonly name: string; readonly error: string }

export async function readJsonFile(file: File): Promise<Loaded> {
  if (file.size > MAX_FILE_BYTES)
    return {
      name: file.name,
      error: `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; the limit is 20 MB`,
    }
  let text: string
  try {
    text = await file.text()
  } catch (err) {
    return {
      name: file.name,
      error: `cannot read ${file.name}: ${err instanceof Error ? err.message : String(err)}`,
    }
  }
  try {
    return { name: file.name, value: JSON.parse(text) as unknown }
  } catch {
    return { name: file.name, error: `${file.name} is not JSON` }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Whether a parsed file looks like an inputs side file rather than a receipt (for a two-file drop). */
export function looksLikeInputs(value: unknown): boolean {
  return isObject(value) && value.format === 'tabswarm-receipt-inputs-v1'
}

/** The receipt's fields to show, read defensively: an invalid receipt can miss any of them. */
export function receiptFields(value: unknown): Partial<Record<keyof Receipt, string>> {
  if (!isObject(value)) return {}
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(value))
    if (typeof v === 'string' || typeof v === 'number') out[k] = String(v)
  return out as Partial<Record<keyof Receipt, string>>
}

/** The file name a receipt from the swarm gets when opened or downloaded: whose, and which step. */
export const receivedFileName = (receipt: Receipt): string =>
  `${animalName(receipt.peerId).replaceAll(' ', '-')}-${receipt.chainLength}-${receipt.receiptHash.slice(0, 8)}.receipt.json`

/** A hash's first 8 hex digits, git-style, for tables with several hash columns (full hash in a title). */
export const hashPrefix = (hash: string) => `${hash.slice(0, 8)}…`

export const shortHash = (hash: string | undefined) =>
  hash === undefined ? '—' : hash.length > 20 ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : hash

export function divergenceOf(verdict: VerifyVerdict): { index: number; op: string } | undefined {
  return 'divergence' in verdict ? verdict.divergence : undefined
}
