// A market kind is looked up, not branched on: outside its own folder nothing compares a kind's name,
// and every kind the registry lists gives the maths a consistent state from a snapshot's fields.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MARKET_KINDS, MARKET_KIND_NAMES } from './market-kinds.ts'
import { buyMaths, mathsMarket, mathsProbabilities } from './market-maths.ts'

const SRC = join(import.meta.dirname, '../..')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

describe('market kinds', () => {
  it('no product file branches on a kind by name', () => {
    const names = MARKET_KIND_NAMES.join('|')
    const branch = new RegExp(`[!=]==\\s*'(${names})'|'(${names})'\\s*[!=]==`)
    const found = sources(SRC)
      .filter((path) => branch.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path))
    expect(found).toEqual([])
  })

  it('the check finds a branch where there is one', () => {
    const names = MARKET_KIND_NAMES.join('|')
    const branch = new RegExp(`[!=]==\\s*'(${names})'|'(${names})'\\s*[!=]==`)
    expect(branch.test("const x = m.kind === 'lmsr' ? 1 : 2")).toBe(true)
  })

  for (const kind of MARKET_KIND_NAMES) {
    it(`${kind}: a state read back from its own fields quotes what the created state quotes`, () => {
      const spec = MARKET_KINDS[kind]
      const config = {
        outcomeCount: 3,
        k: spec.liquidity.min * 10n,
        tradingFee: spec.tradingFee.max,
        tokenDecimals: 6,
      }
      const initialDeposit = 'chosen' in spec.deposit ? 100n * 10n ** 6n : spec.deposit.fromLiquidity(config)
      const created = { kind, market: spec.created({ ...config, initialDeposit }) }
      const after = buyMaths(created, 1, 5n * 10n ** 18n).after
      // the fields a snapshot would carry for `after`, from whichever of them the kind's state keeps
      const m = after.market as unknown as Record<string, unknown>
      const fields = {
        ...config,
        supplies: m.supplies as bigint[],
        pool: m.pool as bigint,
        tradingFees: m.tradingFees as bigint,
        sumTerm: (m.sumTerm as bigint | undefined) ?? 0n,
        exps: (m.exps as bigint[] | undefined) ?? [],
        expSum: (m.expSum as bigint | undefined) ?? 0n,
        initialPool: m.initialPool as bigint,
        refund: (m.refund as bigint | undefined) ?? 0n,
      }
      const read = mathsMarket({ kind, ...fields })
      expect(mathsProbabilities(read)).toEqual(mathsProbabilities(after))
      expect(buyMaths(read, 0, 10n ** 18n).tokens).toBe(buyMaths(after, 0, 10n ** 18n).tokens)
      expect(spec.name).not.toBe('')
    })
  }
})
