// pass@1 with a 95 % interval over distinct prompts, and the format-failure rate beside it, for one
// family × difficulty cell and for the uniform mix over cells.
//
// One cell: the Wilson score interval. Cells hold 5–500 prompts and pass rates near 0 or 1 are common
// (base conversion d1 ≈ 100 %, sorting d2 ≈ 0 %), where the normal interval collapses to a point or
// leaves [0, 1]; Wilson stays inside and keeps its coverage at small n.
// The mix: each cell weighs 1/C whatever its size (a small prompt space does not count for less), so the
// estimate is the stratified mean of the cells' rates, and its variance the sum of the cells' binomial
// variances over C²; the interval is normal on that. Each cell's variance is taken at the Agresti–Coull
// rate p̃ = (x + z²/2) / (n + z²) over n + z², so a cell at 0 or 1 (common with a few prompts a cell, as
// in the tab) still counts as uncertain instead of adding nothing.

/** The two-sided 95 % normal quantile. */
export const Z95 = 1.959963984540054

/** A cell's greedy results: tasks, the share passed and the share with a parsable answer. */
export interface CellScore {
  readonly tasks: number
  /** Share correct, 0…1 (a count over `tasks`). */
  readonly pass: number
  /** Share with an `<answer>…</answer>` at all. */
  readonly formatted: number
}

export interface PassInterval {
  /** pass@1, 0…1. */
  readonly pass: number
  /** 95 % interval [low, high] of pass@1. */
  readonly ci95: readonly [number, number]
  /** Share of completions with no parsable answer. */
  readonly formatFailures: number
  /** Distinct prompts behind it. */
  readonly tasks: number
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x))

/** Wilson score interval of `passed` successes in `n` trials. */
export function wilsonInterval(passed: number, n: number, z = Z95): [number, number] {
  if (!Number.isInteger(n) || n < 1 || passed < 0 || passed > n)
    throw new RangeError(`Wilson interval needs 0 ≤ passed ≤ n, n ≥ 1 (got ${passed} of ${n})`)
  const p = passed / n
  const z2 = z * z
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n)
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))
  return [clamp01(centre - half), clamp01(centre + half)]
}

/** One cell: pass@1 with its Wilson interval. */
export function cellInterval(score: CellScore): PassInterval {
  const passed = Math.round(score.pass * score.tasks)
  return {
    pass: score.pass,
    ci95: wilsonInterval(passed, score.tasks),
    formatFailures: 1 - score.formatted,
    tasks: score.tasks,
  }
}

/** The uniform mix over cells: stratified mean and its normal interval; format failures likewise. */
export function stratifiedInterval(cells: readonly CellScore[]): PassInterval {
  if (cells.length === 0 || cells.some((c) => c.tasks < 1))
    throw new RangeError('a stratified pass@1 needs cells with at least one task each')
  const c = cells.length
  const pass = cells.reduce((a, s) => a + s.pass, 0) / c
  const z2 = Z95 * Z95
  const variance =
    cells.reduce((a, s) => {
      const adjusted = (s.pass * s.tasks + z2 / 2) / (s.tasks + z2)
      return a + (adjusted * (1 - adjusted)) / (s.tasks + z2)
    }, 0) /
    (c * c)
  const half = Z95 * Math.sqrt(variance)
  return {
    pass,
    ci95: [clamp01(pass - half), clamp01(pass + half)],
    formatFailures: cells.reduce((a, s) => a + (1 - s.formatted), 0) / c,
    tasks: cells.reduce((a, s) => a + s.tasks, 0),
  }
}

/**
 * Cell by cell, the results of scorers that each took a share of the same cells' prompts, as if one had
 * scored them all: counts add, so a cell's rates are weighted by each share's tasks.
 */
export function poolCellScores<C extends CellScore>(shares: readonly (readonly C[])[]): C[] {
  const [first, ...rest] = shares
  if (first === undefined) throw new RangeError('pooling needs at least one share')
  if (rest.some((s) => s.length !== first.length))
    throw new RangeError('pooled shares must score the same cells')
  return first.map((cell, i) => {
    const parts = shares.map((s) => s[i]!)
    const tasks = parts.reduce((a, p) => a + p.tasks, 0)
    const share = (rate: (p: C) => number) =>
      tasks === 0 ? 0 : parts.reduce((a, p) => a + rate(p) * p.tasks, 0) / tasks
    return { ...cell, tasks, pass: share((p) => p.pass), formatted: share((p) => p.formatted) }
  })
}

/**
 * The change of the uniform mix's pass@1 from `before` to `after` (the same cells, the same prompts
 * scored by two models) with a 95 % interval: each cell's difference with the Agresti–Caffo variance
 * (one success and one failure added to each side, so a cell at 0 or 1 still counts as uncertain),
 * the cells weighed 1/C. It treats the two sides as independent samples, which overstates the variance
 * of a paired comparison on the same prompts: the interval is conservative.
 */
export function stratifiedChange(
  before: readonly CellScore[],
  after: readonly CellScore[],
): { change: number; ci95: [number, number] } {
  if (before.length === 0 || before.length !== after.length)
    throw new RangeError('a change of pass@1 needs the same non-empty cells on both sides')
  const c = before.length
  const adjusted = (s: CellScore) => {
    const p = (s.pass * s.tasks + 1) / (s.tasks + 2)
    return (p * (1 - p)) / (s.tasks + 2)
  }
  const change = before.reduce((a, s, i) => a + after[i]!.pass - s.pass, 0) / c
  const variance = before.reduce((a, s, i) => a + adjusted(s) + adjusted(after[i]!), 0) / (c * c)
  const half = Z95 * Math.sqrt(variance)
  return { change, ci95: [change - half, change + half] }
}
