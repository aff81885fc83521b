import { describe, expect, it } from 'vitest'
import * as dpm from '../../core/markets/dpm/dpm.ts'
import { dpmSnapshot } from '../../../test-support/markets/market-snapshot-fixture.ts'
import type { ExitResult } from './exit-actions.ts'
import { runBatchRedeem, type RedeemTarget } from './batch-redeem.ts'

const market = dpm.createDpmMarket({
  outcomeCount: 2,
  k: 10n ** 19n,
  tradingFee: 10n ** 16n,
  tokenDecimals: 6,
  initialDeposit: 10n ** 8n,
})
const target = (n: number): RedeemTarget => ({
  market: dpmSnapshot(market, { address: `0x${String(n).padStart(40, '0')}` }),
  exit: { ok: true, action: 'redeem', outcomes: [0], sharesIn: [1n], tokensOut: BigInt(n) },
})

describe('runBatchRedeem', () => {
  it('redeems in order; a refusal or a throw is reported and the next market still goes', async () => {
    const targets = [target(1), target(2), target(3)]
    const sent: string[] = []
    const results: [string, ExitResult][] = []
    const failedStates: string[] = []
    await runBatchRedeem({
      targets,
      redeem: async (t) => {
        sent.push(t.market.address)
        if (t.exit.tokensOut === 1n) throw new Error('user rejected the request')
        if (t.exit.tokensOut === 2n) return { ok: false, error: 'The market is not settled.' }
        return { ok: true, received: t.exit.tokensOut }
      },
      onState: (a, s) => s.phase === 'failed' && failedStates.push(a),
      onResult: (a, r) => results.push([a, r]),
    })
    const [a, b, c] = targets.map((t) => t.market.address)
    expect(sent).toEqual([a, b, c])
    expect(results[0]![0]).toBe(a)
    expect(results[0]![1].ok).toBe(false)
    expect(results[1]).toEqual([b, { ok: false, error: 'The market is not settled.' }])
    expect(results[2]).toEqual([c, { ok: true, received: 3n }])
    expect(failedStates).toEqual([a, b])
  })
})
