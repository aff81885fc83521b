import { describe, expect, it } from 'vitest'
import { generateReasoningTask } from '../tasks/generate-reasoning-task.ts'
import { MAX_GROUPS_PER_MESSAGE, validateRolloutsBody, type RolloutGroup } from './rollouts.ts'
import { refOfTask, taskFromRef } from './task-ref.ts'

const task = generateReasoningTask('arithmetic', 1, 3)
const group = (over: Partial<RolloutGroup> = {}): RolloutGroup => ({
  taskId: task.id,
  task: refOfTask(task),
  completions: [
    { text: `<answer>${task.answer}</answer>`, tokenIds: [1, 2, 3] },
    { text: '<answer>0</answer>', tokenIds: [4, 5] },
  ],
  rewards: [1.2, 0.2],
  policyVersion: 3,
  ...over,
})

describe('validateRolloutsBody', () => {
  it('accepts well-formed groups and their tasks regenerate to the claimed id', () => {
    const body = validateRolloutsBody({ groups: [group()] }, 2)
    expect(body).toEqual({ groups: [group()] })
    if (typeof body === 'string') throw new Error(body)
    expect(taskFromRef(body.groups[0]!.task).id).toBe(body.groups[0]!.taskId)
  })

  it.each([
    ['not an object', 'x', 'not an object'],
    ['no groups', { groups: [] }, '1–16 groups'],
    [
      'too many groups',
      { groups: Array.from({ length: MAX_GROUPS_PER_MESSAGE + 1 }, () => group()) },
      'groups',
    ],
    ['a wrong G', { groups: [group({ completions: [group().completions[0]!] })] }, 'exactly 2 completions'],
    ['a bad task id', { groups: [group({ taskId: 'zz' })] }, '64 hex'],
    ['a NaN reward', { groups: [group({ rewards: [NaN, 0] })] }, 'finite rewards'],
    [
      'a fractional token id',
      {
        groups: [
          group({
            completions: [
              { text: '', tokenIds: [0.5] },
              { text: '', tokenIds: [] },
            ],
          }),
        ],
      },
      'token ids',
    ],
    ['a negative policy version', { groups: [group({ policyVersion: -1 })] }, 'policyVersion'],
    [
      'an unknown difficulty',
      { groups: [group({ task: { ...refOfTask(task), difficulty: 9 as 1 } })] },
      'difficulty',
    ],
    ['a task twice', { groups: [group(), group()] }, 'twice'],
  ])('refuses %s with a sentence', (_name, body, message) => {
    const result = validateRolloutsBody(body, 2)
    expect(typeof result).toBe('string')
    expect(result).toContain(message)
  })
})

describe('validateRolloutsBody on sparse arrays', () => {
  // A sparse array has holes that `every` and `for…of` treat differently: a hole is no value at all,
  // so a body holding one is not what any encoder sends (JSON has no holes) and is refused.
  const sparse = <T>(items: T[], hole: number): T[] => {
    const out = [...items]
    delete out[hole]
    return out
  }
  it.each([
    [
      'token ids',
      group({ completions: [{ text: '', tokenIds: sparse([1, 2, 3], 1) }, group().completions[1]!] }),
    ],
    ['rewards', group({ rewards: sparse([1, 0], 0) })],
    ['completions', group({ completions: sparse(group().completions, 1) })],
  ])('refuses a hole in %s', (_name, g) => {
    expect(typeof validateRolloutsBody({ groups: [g] }, 2)).toBe('string')
  })
  it('refuses a hole in groups', () => {
    expect(typeof validateRolloutsBody({ groups: sparse([group(), group()], 1) }, 2)).toBe('string')
  })
})
