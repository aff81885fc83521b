// pass@k and average@k from n ≥ k samples per task, with the unbiased estimators of the Codex paper
// (Chen et al. 2021): pass@k = 1 − C(n−c, k) / C(n, k), the chance that k of the n samples drawn without
// replacement include at least one of the c correct ones. The ratio is computed as a product,
// C(n−c, k) / C(n, k) = Π_{i=n−c+1..n} (1 − k/i), which neither overflows nor cancels.

function checkSamples(n: number, k: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(k) || k < 1 || k > n)
    throw new RangeError(`pass@k needs integers 1 ≤ k ≤ n (got n = ${n}, k = ${k})`)
}

export function passAtK(n: number, c: number, k: number): number {
  checkSamples(n, k)
  if (!Number.isInteger(c) || c < 0 || c > n) throw new RangeError(`correct count ${c} is not in 0 … ${n}`)
  if (n - c < k) return 1
  let miss = 1
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i
  return 1 - miss
}

/**
 * average@k: the expected mean score of k samples drawn without replacement from the n scored ones.
 * Every sample is in the same share of the k-subsets, so the unbiased estimate is the mean of all n.
 */
export function averageAtK(scores: readonly number[], k: number): number {
  checkSamples(scores.length, k)
  return scores.reduce((sum, s) => sum + s, 0) / scores.length
}
