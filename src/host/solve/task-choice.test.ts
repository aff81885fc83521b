import { describe, expect, it } from 'vitest'
import { ANY_FAMILY, FAMILY_OPTIONS, drawTask, familyAt } from './task-choice.ts'

describe('task choice', () => {
  it('offers every reasoning family and code template', () => {
    const ids = FAMILY_OPTIONS.map((f) => f.id)
    expect(ids).toContain('reasoning/arithmetic')
    expect(ids).toContain('code/digit-sum')
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("'any' walks through all families by seed", () => {
    const seen = new Set(FAMILY_OPTIONS.map((_, seed) => familyAt(ANY_FAMILY, seed)))
    expect(seen.size).toBe(FAMILY_OPTIONS.length)
    expect(familyAt('code/run-length', 3)).toBe('code/run-length')
  })

  it('draws the same task for the same settings, of the named kind', () => {
    const a = drawTask('code/digit-sum', 2, 7)
    expect(a).toEqual(drawTask('code/digit-sum', 2, 7))
    expect(a.kind).toBe('code')
    expect(drawTask('reasoning/arithmetic', 1, 7).kind).toBe('reasoning')
    expect(drawTask('reasoning/arithmetic', 1, 8).id).not.toBe(drawTask('reasoning/arithmetic', 1, 7).id)
  })

  it('refuses an unknown family or a bad seed with a sentence', () => {
    expect(() => drawTask('poetry', 1, 1)).toThrow('unknown task family "poetry"')
    expect(() => drawTask('reasoning/nope', 1, 1)).toThrow('unknown reasoning task family "nope"')
    expect(() => drawTask('reasoning/arithmetic', 1, -1)).toThrow('the seed must be a whole number ≥ 0')
  })
})
