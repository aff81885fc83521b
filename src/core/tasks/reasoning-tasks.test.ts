// Every reasoning family at every difficulty: tasks are well formed, deterministic, their own answers
// verify (also when written differently but equivalently) and wrong answers do not.
import { describe, expect, it } from 'vitest'
import { generateReasoningTask } from './generate-reasoning-task.ts'
import { REASONING_FAMILIES, reasoningFamily } from './reasoning-families.ts'
import { DIFFICULTIES, type ReasoningTask } from './task.ts'
import { verifyReasoning } from './verify-reasoning.ts'

const SEEDS = Array.from({ length: 40 }, (_, i) => i)
const tagged = (answer: string) => `Let me think. <answer>${answer}</answer>`

/** Answers that must be wrong, derived from the right one. */
const WRONG: Record<string, (answer: string) => string[]> = {
  arithmetic: (a) => [`${BigInt(a) + 1n}`, `${-BigInt(a) - 1n}`],
  'base-conversion': (a) => [`${a}0`, a.length > 1 ? a.slice(1) : `1${a}`],
  'fraction-simplification': (a) => {
    const [p, q = '1'] = a.split('/')
    return [`${2n * BigInt(p!)}/${2n * BigInt(q)}`, `${BigInt(p!) + 1n}/${q}`, `${-BigInt(p!)}/${q}`]
  },
  'propositional-logic': (a) => [a === 'true' ? 'false' : 'true', 'maybe'],
  'modular-arithmetic': (a) => [`${BigInt(a) + 1n}`, `${-BigInt(a) - 1n}`],
  'list-sorting': (a) => {
    const items = a.split(', ')
    const i = items.findIndex((x, j) => j > 0 && x !== items[0])
    if (i > 0) [items[0], items[i]] = [items[i]!, items[0]!]
    return [items.join(', '), items.slice(1).join(', ')]
  },
}

/** The same answer written another way a person might write it. */
const EQUIVALENT: Record<string, (answer: string) => string[]> = {
  arithmetic: (a) => [` ${a} `, a.startsWith('-') ? a : `+${a}`],
  'base-conversion': (a) => [a.toUpperCase(), `0x${a}`, `0${a}`],
  'fraction-simplification': (a) => {
    const [p, q = '1'] = a.split('/')
    return [` ${p} / ${q} `, `\\frac{${p}}{${q}}`, p!.startsWith('-') ? `${p!.slice(1)}/-${q}` : `(${a})`]
  },
  'propositional-logic': (a) => [a.toUpperCase(), `${a[0]}`, `${a}.`],
  'modular-arithmetic': (a) => [` ${a}`],
  'list-sorting': (a) => [`[${a}]`, a.replaceAll(',', ''), a.replaceAll(', ', ',')],
}

describe.each(REASONING_FAMILIES.map((f) => f.name))('%s', (family) => {
  it.each(DIFFICULTIES)(
    'difficulty %i: valid tasks whose answer verifies and wrong answers do not',
    (difficulty) => {
      const ids = new Set<string>()
      for (const seed of SEEDS) {
        const task = generateReasoningTask(family, difficulty, seed)
        expect(task).toMatchObject({ kind: 'reasoning', family, difficulty, seed })
        expect(task.id).toMatch(/^[0-9a-f]{64}$/)
        expect(task.prompt).toContain('<answer>')
        // no word or sentence said twice in a row (a family once wrapped its own wrapper)
        expect(task.prompt).not.toMatch(/\b([A-Za-z]+)\s+\1\b|(\.\s*)\.|\b(.{20,})\3/)
        expect(reasoningFamily(family)!.canonical(task.answer)).toBeDefined()
        ids.add(task.id)

        expect(verifyReasoning(task, tagged(task.answer))).toEqual({ formatted: true, correct: true })
        for (const same of EQUIVALENT[family]!(task.answer))
          expect(verifyReasoning(task, tagged(same)), `${same} for ${task.answer}`).toEqual({
            formatted: true,
            correct: true,
          })
        for (const wrong of WRONG[family]!(task.answer).filter((w) => w !== task.answer))
          expect(verifyReasoning(task, tagged(wrong)), `${wrong} for ${task.answer}`).toEqual({
            formatted: true,
            correct: false,
          })
        expect(verifyReasoning(task, task.answer)).toEqual({ formatted: false, correct: false })
        expect(verifyReasoning(task, tagged(''))).toEqual({ formatted: true, correct: false })
      }
      // Seeds give different tasks; a few repeats are possible only at the smallest difficulty.
      expect(ids.size).toBeGreaterThan(SEEDS.length * (difficulty === 1 ? 0.5 : 0.9))
    },
  )

  it('gives the same task for the same family, difficulty and seed', () => {
    expect(generateReasoningTask(family, 3, 11)).toEqual(generateReasoningTask(family, 3, 11))
    expect(generateReasoningTask(family, 3, 11).id).not.toBe(generateReasoningTask(family, 4, 11).id)
  })
})

describe('reasoning tasks', () => {
  it('keep their ids across versions and platforms', () => {
    const ids = REASONING_FAMILIES.map((f) => generateReasoningTask(f.name, 2, 42)).map(
      (t: ReasoningTask) => `${t.family} ${t.id.slice(0, 16)} ${t.answer}`,
    )
    expect(ids).toMatchInlineSnapshot(`
      [
        "arithmetic 3c49d9327fbd9b31 242",
        "base-conversion 2a88639dac86664d 227",
        "fraction-simplification 80e623cd14b362da 11/4",
        "propositional-logic 6a74fea0777e62d9 false",
        "modular-arithmetic db65d0571c34257a 2",
        "list-sorting 262b00741d63e4c2 4, 30, 32, 57, 64",
      ]
    `)
  })

  it('refuse an unknown family', () => {
    expect(() => generateReasoningTask('astrology', 1, 1)).toThrow(
      /unknown reasoning task family "astrology"/,
    )
  })

  it('accept the last answer when a completion changes its mind', () => {
    const task = generateReasoningTask('arithmetic', 1, 5)
    expect(verifyReasoning(task, `<answer>${task.answer}</answer> wait, <answer>x</answer>`).correct).toBe(
      false,
    )
    expect(verifyReasoning(task, `<answer>x</answer> wait, <answer>${task.answer}</answer>`).correct).toBe(
      true,
    )
  })
})
