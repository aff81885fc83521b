import { describe, expect, it } from 'vitest'
import { generateReasoningTask, generateWorkedTask } from '../../../core/tasks/generate-reasoning-task.ts'
import { isReservedPrompt } from '../../../core/tasks/reserved-prompts.ts'
import { REASONING_FAMILIES } from '../../../core/tasks/reasoning-families.ts'
import type { Tokenizer } from '../tokenizer/tokenizer.ts'
import { EITHER_SOLVER_RECIPE, NEXT_SOLVER_RECIPE, SOLVER_RECIPE } from './solver-recipe.ts'
import {
  answerTarget,
  encodeExample,
  END_OF_TEXT,
  framePrompt,
  HELD_OUT_SEED_START,
  heldOutTasks,
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

  it("carry modular arithmetic's working only, unless the recipe asks for every family's", () => {
    const slots = mixSlots(SOLVER_RECIPE.hyperparameters.mix)
    const examples = Array.from({ length: 4 * slots.length }, (_, n) => trainingExample(slots, n))
    for (const { task, working } of examples)
      if (task.family !== 'modular-arithmetic') expect(working, task.family).toBeUndefined()
    expect(examples.some((e) => e.working !== undefined)).toBe(true)
    const { task } = trainingExample(slots, 3)
    expect(task.family).toBe('arithmetic')
    expect(trainingExample(slots, 3, { workings: 'all-families-v1' })).toEqual(
      generateWorkedTask(task.family, task.difficulty, task.seed),
    )
    expect(trainingExample(slots, 3, { workings: 'all-families-v1' }).working).toBeDefined()
  })

  it("in the next recipe, put a working before the answer in every family's targets", () => {
    const { mix, workings } = NEXT_SOLVER_RECIPE.hyperparameters
    const slots = mixSlots(mix)
    const worked = new Map<string, number>()
    for (let n = 0; n < 20 * slots.length; n++) {
      const example = trainingExample(slots, n, { workings })
      const target = answerTarget(example)
      expect(target.endsWith(` <answer>${example.task.answer}</answer>${END_OF_TEXT}`), target).toBe(
        example.working !== undefined,
      )
      if (example.working !== undefined)
        worked.set(example.task.family, (worked.get(example.task.family) ?? 0) + 1)
    }
    expect([...worked.keys()].sort()).toEqual(REASONING_FAMILIES.map((f) => f.name).sort())
    // every difficulty-1 example of the mix has one: only a one-digit number's base conversion has nothing to work out
    for (let n = 0; n < 20 * slots.length; n++) {
      const { task, working } = trainingExample(slots, n, { workings })
      if (task.difficulty === 1) expect(working, task.prompt).toBeDefined()
    }
  })

  it('in the either recipe, give every other example of each entry its working and the rest the bare answer', () => {
    const { mix, workings, heldOut } = EITHER_SOLVER_RECIPE.hyperparameters
    expect(workings).toBe('either-v1')
    const slots = mixSlots(mix)
    // per entry: how many of its examples have a working to give, and how many were given one
    const counts = new Map<string, { uses: number; possible: number; worked: number }>()
    for (let n = 0; n < 20 * slots.length; n++) {
      const example = trainingExample(slots, n, { workings, heldOut })
      // the tasks are the next recipe's; only whether the working is there differs
      const next = trainingExample(slots, n, NEXT_SOLVER_RECIPE.hyperparameters)
      expect(example.task).toEqual(next.task)
      const key = `${example.task.family}/${example.task.difficulty}`
      const c = counts.get(key) ?? { uses: 0, possible: 0, worked: 0 }
      counts.set(key, c)
      // an entry's uses alternate, working first, where the family writes one (modular d2 has none)
      expect(example.working, key).toBe(c.uses % 2 === 0 ? next.working : undefined)
      c.uses++
      if (next.working !== undefined) c.possible++
      if (example.working !== undefined) c.worked++
    }
    expect([...counts.keys()].sort()).toEqual(mix.map((e) => `${e.family}/${e.difficulty}`).sort())
    const halves = [...counts].filter(([, c]) => c.possible === c.uses)
    expect(halves.length).toBeGreaterThanOrEqual(10)
    for (const [key, c] of halves) expect(c.worked, key).toBe(c.uses / 2)
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

  it("with the recipe's heldOut rule, never yield a reserved prompt; the shipped recipe predates it", () => {
    expect(SOLVER_RECIPE.hyperparameters.heldOut).toBeUndefined()
    expect(NEXT_SOLVER_RECIPE.hyperparameters.heldOut).toBe('reserved-prompts-v1')
    const slots = mixSlots(NEXT_SOLVER_RECIPE.hyperparameters.mix)
    // 100 steps of 28: every entry of the mix, small difficulty-1 spaces included, many times over
    const n = 100 * NEXT_SOLVER_RECIPE.hyperparameters.batchSize
    const reserved = (heldOut?: 'reserved-prompts-v1') =>
      Array.from({ length: n }, (_, i) => trainingExample(slots, i, { heldOut })).filter((e) =>
        isReservedPrompt(e.task.prompt),
      ).length
    expect(reserved(NEXT_SOLVER_RECIPE.hyperparameters.heldOut)).toBe(0)
    expect(reserved(undefined)).toBeGreaterThan(n / 16)
  })

  it('with the rule, keep the reserved test prompts out of the validation tasks a stop step is chosen on', () => {
    const rule = NEXT_SOLVER_RECIPE.hyperparameters.heldOut
    const all = heldOutTasks('arithmetic', 1)
    const validation = heldOutTasks('arithmetic', 1, rule)
    expect(all.filter((t) => isReservedPrompt(t.prompt)).length).toBeGreaterThan(0)
    expect(validation.some((t) => isReservedPrompt(t.prompt))).toBe(false)
    expect(validation).toEqual(all.filter((t) => !isReservedPrompt(t.prompt)))
  })

  it('with the rule, walk the unreserved seeds in order and keep the working', () => {
    const slots = mixSlots([{ family: 'modular-arithmetic', difficulty: 1, weight: 1 }])
    const seeds = Array.from(
      { length: 40 },
      (_, i) => trainingExample(slots, i, { heldOut: 'reserved-prompts-v1' }).task.seed,
    )
    const expected = Array.from({ length: 60 }, (_, s) => s).filter(
      (s) => !isReservedPrompt(generateReasoningTask('modular-arithmetic', 1, s).prompt),
    )
    expect(seeds).toEqual(expected.slice(0, 40))
    expect(trainingExample(slots, 5, { heldOut: 'reserved-prompts-v1' })).toEqual(
      generateWorkedTask('modular-arithmetic', 1, expected[5]!),
    )
  })
})
