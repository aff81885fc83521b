import { describe, expect, it } from 'vitest'
import { rolloutGroupHash } from '../../core/learning/group-hash.ts'
import { rolloutFromGroups } from './grpo-inputs.ts'
import { trainedCompletions, trainedGroupsOf } from './trained-groups.ts'

const TASKS = ['a1'.repeat(32), 'b2'.repeat(32)]
const groups = [
  {
    promptIds: [1, 2],
    completions: [[3, 4], [5]],
    rewards: [1, 0],
    origin: { from: 'me', taskId: TASKS[0]! },
  },
  {
    promptIds: [6],
    completions: [[7, 8, 9, 10, 11]],
    rewards: [1],
    origin: { from: 'you', taskId: TASKS[1]! },
  },
]

describe('trainedCompletions', () => {
  it("reads each group's completions back from the rows' loss targets, a cut one as cut", () => {
    // maxSeqLen 4: the second group's row keeps its prompt and the first 3 completion tokens
    const rollout = rolloutFromGroups(groups, 0, 4)
    expect(trainedCompletions(rollout)).toEqual([[[3, 4], [5]], [[7, 8, 9]]])
  })
})

describe('trainedGroupsOf', () => {
  it('names each group by its sender and the hash of its task and trained tokens', () => {
    const rollout = rolloutFromGroups(groups, 0, 16)
    expect(trainedGroupsOf(rollout, rollout.origins!)).toEqual(
      groups.map((g) => ({
        from: g.origin.from,
        hash: rolloutGroupHash({
          taskId: g.origin.taskId,
          completions: g.completions.map((tokenIds) => ({ tokenIds })),
        }),
      })),
    )
    expect(() => trainedGroupsOf(rollout, rollout.origins!.slice(1))).toThrow(/1 task ids for 2 groups/)
  })
})
