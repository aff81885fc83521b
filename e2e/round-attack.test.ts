// The round attack's own message carries every class it claims: a test of the attacker, so the e2e's
// "refused for each class" cannot fail (or pass) for a group the attacker never sent.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseTokenizerJson } from '../src/compute/model/tokenizer/bpe-tokenizer.ts'
import { attackOn } from './attack-tabs.ts'
import { roundAttackMessages, type RoundAttackContext } from './round-attack.ts'

const TABS = ['tab-a', 'tab-b', 'tab-c']
// enough attacker identities that some own draw meets a tab's task (the micro swarm's 115-prompt cell)
const MAINS = 60

describe('roundAttackMessages', () => {
  it("puts a hidden-tokens and a too-long group in the attacker's own message, whatever its draw meets", () => {
    const options = { swarmId: 'attack-test', ...attackOn(0, 1, TABS) }
    const tokenizer = parseTokenizerJson(JSON.parse(readFileSync(options.tokenizerPath, 'utf8')))
    let fresh = 0
    for (let m = 0; m < MAINS; m++) {
      const ctx: RoundAttackContext = {
        ...options,
        tokenizer,
        main: `main-${m}`,
        fresh: () => `fresh-${fresh++}`,
      }
      const round = 10 + m
      const own = roundAttackMessages(ctx, round, 1_000_000).find(
        (msg) => msg.signer === ctx.main && msg.classes.includes('too-long'),
      )!
      const ids = own.groups.flatMap((g) => g.completions.map((c) => c.tokenIds))
      expect(
        ids.some((t) => t.length > ctx.maxSeqLen),
        `main-${m}: a completion past the context`,
      ).toBe(true)
      expect(
        ids.some((t) => t.includes(ctx.eosId)),
        `main-${m}: an end-of-sequence token inside`,
      ).toBe(true)
    }
  })
})
