// Small helpers shared by the benchmarks: percentiles, the printed table and the results file.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]!
}

export interface Row {
  metric: string
  value: string
  baseline: string
  ratio: string
}

export function printTable(title: string, rows: readonly Row[]): void {
  const cols: (keyof Row)[] = ['metric', 'value', 'baseline', 'ratio']
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join('  ')
  console.log(`\n${title}`)
  console.log(line(cols))
  console.log(line(width.map((w) => '-'.repeat(w))))
  for (const r of rows) console.log(line(cols.map((c) => r[c])))
}

export const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '—')

/** A command-line flag's value as a positive integer, or an error naming the flag. */
export function positiveInt(text: string, flag: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${flag} takes a positive integer, got "${text}"`)
  return n
}

/** Writes one bench's results as JSON, dated, creating the folder, and says where. */
export async function writeResults(out: string, results: object): Promise<void> {
  await mkdir(dirname(out), { recursive: true })
  await writeFile(out, `${JSON.stringify({ date: new Date().toISOString(), ...results }, null, 2)}\n`)
  console.log(`\nwrote ${out}`)
}
