// The BPE model proper: a byte-level word (one pre-token, already mapped through byte-level.ts) → ids.
// Merges apply by rank, lowest first, leftmost occurrence first, which is what the Rust library's
// priority queue does. Results are cached per word: prompts repeat the same words, so after warm-up
// most pre-tokens cost one Map lookup.
import { PAIR_KEY_BASE, pairKey } from './pair-key.ts'
import type { BpeModelJson } from './tokenizer-json.ts'

interface Merge {
  readonly rank: number
  readonly id: number
}

/** Words cached before the cache starts over; the Rust library caches 10,000 words too. */
const WORD_CACHE_CAPACITY = 10_000

function mergeParts(merge: string | [string, string]): [string, string] {
  if (typeof merge !== 'string') return merge
  const [left = '', right = ''] = merge.split(' ')
  return [left, right]
}

export class BpeModel {
  readonly vocab: ReadonlyMap<string, number>
  private readonly merges = new Map<number, Merge>()
  private readonly unkId: number | undefined
  private readonly cache = new Map<string, readonly number[]>()

  constructor(private readonly json: BpeModelJson) {
    this.vocab = new Map(Object.entries(json.vocab))
    for (const id of this.vocab.values())
      if (id >= PAIR_KEY_BASE)
        throw new RangeError(`tokenizer.json: model.vocab id ${id} is too large (max ${PAIR_KEY_BASE - 1})`)
    for (let rank = 0; rank < json.merges.length; rank++)
      this.addMerge(json.merges[rank] as string | [string, string], rank)
    if (json.unk_token !== null) {
      this.unkId = this.vocab.get(json.unk_token)
      if (this.unkId === undefined)
        throw new RangeError(
          `tokenizer.json: model.unk_token ${JSON.stringify(json.unk_token)} is not in model.vocab`,
        )
    }
  }

  private addMerge(merge: string | [string, string], rank: number): void {
    const [left, right] = mergeParts(merge)
    const leftId = this.vocab.get(left)
    const rightId = this.vocab.get(right)
    const id = this.vocab.get(left + right)
    if (leftId === undefined || rightId === undefined || id === undefined) {
      const missing = leftId === undefined ? left : rightId === undefined ? right : left + right
      throw new RangeError(
        `tokenizer.json: model.merges[${rank}] ${JSON.stringify(merge)} uses ${JSON.stringify(missing)}, which is not in model.vocab`,
      )
    }
    const key = pairKey(leftId, rightId)
    // a repeated merge keeps its first (best) rank, as the Rust library does
    if (!this.merges.has(key)) this.merges.set(key, { rank, id })
  }

  /** The ids of one byte-level word. */
  encodeWord(word: string): readonly number[] {
    const cached = this.cache.get(word)
    if (cached) return cached
    const ids = this.mergeWord(word)
    if (this.cache.size >= WORD_CACHE_CAPACITY) this.cache.clear()
    this.cache.set(word, ids)
    return ids
  }

  private mergeWord(word: string): number[] {
    const whole = this.json.ignore_merges ? this.vocab.get(word) : undefined
    if (whole !== undefined) return [whole]
    const ids = this.initialSymbols(word)
    for (;;) {
      let best: Merge | undefined
      let at = -1
      for (let i = 0; i + 1 < ids.length; i++) {
        const merge = this.merges.get(pairKey(ids[i] as number, ids[i + 1] as number))
        if (merge && (!best || merge.rank < best.rank)) {
          best = merge
          at = i
        }
      }
      if (!best) return ids
      ids.splice(at, 2, best.id)
    }
  }

  /** One symbol per character; characters outside the vocabulary become unk (fused if asked) or are dropped, as in the Rust library. */
  private initialSymbols(word: string): number[] {
    const ids: number[] = []
    let previousUnknown = false
    for (const char of word) {
      const id = this.vocab.get(char)
      if (id !== undefined) ids.push(id)
      else if (this.unkId !== undefined && !(this.json.fuse_unk && previousUnknown)) ids.push(this.unkId)
      previousUnknown = id === undefined
    }
    return ids
  }
}
