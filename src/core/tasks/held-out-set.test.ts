import { describe, expect, it } from 'vitest'
import { generateReasoningTask } from './generate-reasoning-task.ts'
import { heldOutCell, heldOutSet, HELD_OUT_SCAN_START } from './held-out-set.ts'
import { isReservedPrompt } from './reserved-prompts.ts'

describe('heldOutCell', () => {
  it('takes distinct reserved prompts in seed order from the fixed start, up to the count', () => {
    const cell = heldOutCell('arithmetic', 2, 40)
    expect(cell.tasks).toHaveLength(40)
    expect(cell.exhausted).toBe(false)
    expect(cell.tasks.every((t) => isReservedPrompt(t.prompt))).toBe(true)
    expect(new Set(cell.tasks.map((t) => t.prompt)).size).toBe(40)
    const seeds = cell.tasks.map((t) => t.seed)
    expect(seeds).toEqual([...seeds].sort((a, b) => a - b))
    // every seed scanned before the last one found either gave a prompt already taken or an unreserved one
    const taken = new Set(cell.tasks.map((t) => t.prompt))
    for (let seed = HELD_OUT_SCAN_START; seed < seeds.at(-1)!; seed++) {
      const { prompt } = generateReasoningTask('arithmetic', 2, seed)
      if (isReservedPrompt(prompt)) expect(taken.has(prompt)).toBe(true)
    }
    expect(cell.scanned).toBe(seeds.at(-1)! + 1 - HELD_OUT_SCAN_START)
  })

  it('is the same set on every call (memoised and pure)', () => {
    const a = heldOutCell('list-sorting', 3, 10)
    expect(heldOutCell('list-sorting', 3, 10)).toBe(a)
    expect(heldOutCell('list-sorting', 3, 20).tasks.slice(0, 10)).toEqual(a.tasks)
  })

  it("says when a small prompt space holds fewer reserved prompts than asked: base conversion d1's 5", () => {
    const cell = heldOutCell('base-conversion', 1, 500)
    expect(cell.exhausted).toBe(true)
    expect(cell.tasks).toHaveLength(5)
    expect(new Set(cell.tasks.map((t) => t.prompt)).size).toBe(5)
  })
})

describe('heldOutSet', () => {
  it('holds one cell per family × difficulty, family-major', () => {
    const cells = heldOutSet(['arithmetic', 'list-sorting'], [2, 3], 5)
    expect(cells.map((c) => `${c.family}/${c.difficulty}/${c.tasks.length}`)).toEqual([
      'arithmetic/2/5',
      'arithmetic/3/5',
      'list-sorting/2/5',
      'list-sorting/3/5',
    ])
  })
})
