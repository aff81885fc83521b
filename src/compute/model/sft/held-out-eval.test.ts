import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCheckpoint } from '../checkpoint.ts'
import { flatFromParams } from '../f64/flat-params.ts'
import { parseTokenizerJson } from '../tokenizer/bpe-tokenizer.ts'
import { REASONING_FAMILIES } from '../../../core/tasks/reasoning-families.ts'
import { poolCellScores } from '../../../core/tasks/pass-interval.ts'
import { combinedRows, evaluateHeldOut, evaluateReserved, scoreReservedCells } from './held-out-eval.ts'
import { inTargetWindow } from './solver-quality.ts'

// tabswarm-micro: small enough to score quickly, and trained on one family only, so other families'
// prompts tokenise past its context (those count as unanswered).
const folder = join(import.meta.dirname, '../../../../public/models/tabswarm-micro')
const read = (path: string) => new Uint8Array(readFileSync(join(folder, path)))
const { config, params } = readCheckpoint(read('model.safetensors'))
const tokenizer = parseTokenizerJson(JSON.parse(new TextDecoder().decode(read('tokenizer.json'))))
const model = {
  config,
  views: flatFromParams(config, params).views,
  tokenizer,
  stopToken: config.vocabSize - 1,
}

describe('evaluateHeldOut', () => {
  const rows = evaluateHeldOut(model, 3)

  it('scores every family at difficulty 1, 2 and both, in family order', () => {
    expect(rows.map((r) => `${r.family}/${r.difficulty}`)).toEqual(
      REASONING_FAMILIES.flatMap(({ name }) => [`${name}/1`, `${name}/2`, `${name}/1-2`]),
    )
    for (const r of rows) expect(r.tasks).toBe(r.difficulty === '1-2' ? 6 : 3)
  })

  it('combines the difficulties task-weighted and judges the window on the result', () => {
    for (const both of combinedRows(rows)) {
      const [d1, d2] = rows.filter((r) => r.family === both.family && r.difficulty !== '1-2')
      expect(both.pass).toBeCloseTo((d1!.pass + d2!.pass) / 2, 12)
      expect(both.constantRate).toBeCloseTo((d1!.constantRate + d2!.constantRate) / 2, 12)
      expect(both.inWindow).toBe(inTargetWindow(both.pass, both.constantRate))
    }
  })

  it('gives the same verdicts on a second run (greedy, float64)', () => {
    expect(evaluateHeldOut(model, 3)).toEqual(rows)
  })
})

describe('evaluateReserved', () => {
  const { rows, mix } = evaluateReserved(model, [1, 2], 3)

  it('scores the reserved prompts of every family and difficulty, with intervals and format failures', () => {
    expect(rows.map((r) => `${r.family}/${r.difficulty}`)).toEqual(
      REASONING_FAMILIES.flatMap(({ name }) => [`${name}/1`, `${name}/2`]),
    )
    for (const r of rows) {
      expect(r.tasks).toBe(3)
      expect(r.ci95[0]).toBeLessThanOrEqual(r.pass)
      expect(r.ci95[1]).toBeGreaterThanOrEqual(r.pass)
      expect(r.formatFailures).toBeGreaterThanOrEqual(0)
    }
    // micro never saw list sorting: its prompts run past its context, so it writes no answer at all
    expect(rows.find((r) => r.family === 'list-sorting' && r.difficulty === 2)!.formatFailures).toBe(1)
  })

  it('weighs every cell alike in the mix', () => {
    expect(mix.pass).toBeCloseTo(rows.reduce((a, r) => a + r.pass, 0) / rows.length, 12)
    expect(mix.formatFailures).toBeCloseTo(rows.reduce((a, r) => a + r.formatFailures, 0) / rows.length, 12)
    expect(mix.tasks).toBe(36)
  })
})

describe('scoreReservedCells', () => {
  const whole = scoreReservedCells(model, [1], 5)

  it('splits every cell among scorers so that pooling the shares gives the whole set', () => {
    const shares = [0, 1, 2].map((index) => scoreReservedCells(model, [1], 5, { share: { index, of: 3 } }))
    expect(shares.map((s) => s[0]!.tasks)).toEqual([2, 2, 1])
    expect(poolCellScores(shares)).toEqual(whole)
  })

  it('scores only the families it is given, in their order', () => {
    const drawn = scoreReservedCells(model, [1], 5, { families: ['modular-arithmetic', 'arithmetic'] })
    expect(drawn.map((c) => c.family)).toEqual(['modular-arithmetic', 'arithmetic'])
    expect(drawn[1]).toEqual(whole.find((c) => c.family === 'arithmetic'))
  })

  it('refuses a share outside 0…of−1', () => {
    expect(() => scoreReservedCells(model, [1], 5, { share: { index: 3, of: 3 } })).toThrow(/prompt share/)
  })
})
