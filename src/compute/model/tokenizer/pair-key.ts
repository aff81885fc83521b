// Adjacent token pairs as one number, for Map keys in the BPE model and trainer: cheaper than string keys
// and safe for any piece text (pieces may contain spaces or NULs that a joined string key would confuse).

/** Ids stay below 2^26 (67 million; real vocabularies are ~150,000), so left·2^26 + right is an exact safe integer. */
export const PAIR_KEY_BASE = 2 ** 26

export function pairKey(left: number, right: number): number {
  return left * PAIR_KEY_BASE + right
}

export function pairOfKey(key: number): [left: number, right: number] {
  const left = Math.floor(key / PAIR_KEY_BASE)
  return [left, key - left * PAIR_KEY_BASE]
}
