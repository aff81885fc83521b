import { describe, expect, it } from 'vitest'
import { generateReasoningTask, generateWorkedTask } from '../../tasks/generate-reasoning-task.ts'
import type { Tokenizer } from '../tokenizer/tokenizer.ts'
import {
  answerTarget,
  encodeExample,
  framePrompt,
  HELD_OUT_SEED_START,
  mixSlots,
  trainingExample,
} from './sft-data.ts'

/** One token per character: enough to see where the prompt ends and the target starts. */
const charTokenizer = { encode: (text: string) => [...text].map((c) => c.charCodeAt(0) % 97) } as Tokenizer

describe('supervised examples', () => {
  it('frame the prompt as the model sees it and put the loss on the tagged answer', () => {
    const task = generateReasoningTask('arithmetic', 1, 7)
    expect(framePrompt(task)).toBe(`${task.prompt}\n`)
    expect(answerTarget({ task })).toBe(`<answer>${task.answer}</answer><|endoftext|>`)
    const seq = encodeExample(charTokenizer, { task })
    expect(seq.lossFrom).toBe(task.prompt.length + 1)
    expect(seq.ids.length).toBe(seq.lossFrom + answerTarget({ task }).length)
  })

  it("put a family's worked solution before the answer, with the loss on both", () => {
    const example = generateWorkedTask('modular-arithmetic', 1, 3)
    expect(example.working).toMatch(/^\d+ mod \d+ = \d+.*\.$/)
    expect(answerTarget(example)).toBe(
      `${example.working} <answer>${example.task.answer}</answer><|endoftext|>`,
    )
    const seq = encodeExample(charTokenizer, example)
    expect(seq.lossFrom).toBe(example.task.prompt.length + 1)
    expect(seq.ids.length).toBe(seq.lossFrom + answerTarget(example).length)
    expect(
      trainingExample(mixSlots([{ family: 'modular-arithmetic', difficulty: 1, weight: 1 }]), 3),
    ).toEqual(example)
  })

  it('walk each mix entry through its own seeds 0, 1, 2, … in proportion to its weight', () => {
    const slots = mixSlots([
      { family: 'arithmetic', difficulty: 1, weight: 2 },
      { family: 'list-sorting', difficulty: 2, weight: 1 },
    ])
    const tasks = Array.from({ length: 9 }, (_, n) => trainingExample(slots, n))
    expect(tasks.map(({ task: t }) => `${t.family}/${t.difficulty}/${t.seed}`)).toEqual([
      'arithmetic/1/0',
      'arithmetic/1/1',
      'list-sorting/2/0',
      'arithmetic/1/2',
      'arithmetic/1/3',
      'list-sorting/2/1',
      'arithmetic/1/4',
      'arithmetic/1/5',
      'list-sorting/2/2',
    ])
  })

  it('never reaches the held-out seeds', () => {
    const slots = mixSlots([{ family: 'arithmetic', difficulty: 1, weight: 1 }])
    expect(trainingExample(slots, HELD_OUT_SEED_START - 1).task.seed).toBe(HELD_OUT_SEED_START - 1)
    expect(() => trainingExample(slots, HELD_OUT_SEED_START)).toThrow(/held-out/)
  })

  it('refuses a mix without entries or with a non-integer weight', () => {
    expect(() => mixSlots([])).toThrow(/no entries/)
    expect(() => mixSlots([{ family: 'arithmetic', difficulty: 1, weight: 0.5 }])).toThrow(/arithmetic\/1/)
  })
})
