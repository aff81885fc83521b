import { describe, expect, it } from 'vitest'
import { extend, genesis } from './hash-chain.ts'

const weights = 'ab'.repeat(32)
const digests = ['01', '02', '03'].map((b) => b.repeat(32))

describe('step hash chain', () => {
  it('starts from the initial weights and extends one step at a time', () => {
    const start = genesis(weights)
    expect(start.length).toBe(0)
    expect(genesis('ac'.repeat(32)).tip).not.toBe(start.tip)
    const tips = digests.reduce((chain, d) => [...chain, extend(chain.at(-1)!, d)], [start]).map((c) => c.tip)
    expect(new Set(tips).size).toBe(4)
    expect(extend(extend(start, digests[0]!), digests[1]!).length).toBe(2)
  })

  it('diverges for good once one step differs, so disputes can bisect', () => {
    const run = (steps: string[]) => steps.reduce(extend, genesis(weights)).tip
    expect(run(digests)).toBe(run([...digests]))
    expect(run([digests[0]!, digests[2]!, digests[2]!])).not.toBe(run(digests))
    // the index is hashed: the same digest at another position gives another tip
    expect(extend({ tip: genesis(weights).tip, length: 5 }, digests[0]!).tip).not.toBe(
      extend(genesis(weights), digests[0]!).tip,
    )
  })
})
