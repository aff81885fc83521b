// The acceptance cycle as an agent runs it: `npm run markets -- …` as child processes against anvil
// with the demo markets. quote → (buy refused without approval) → approve → buy → quote → sell → the
// oracle settles → positions → redeem; every balance moves by exactly the quoted (or simulated) amount.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dynamicParimutuelGatewayAbi } from '../../host/chain/generated/DynamicParimutuelGateway.ts'
import { startTestChain, type TestChain } from './markets/test-chain.ts'

// Fixed port for this file only (the market commands use 19700–19703).
const ANVIL_PORT = 19700
const DAY = 86_400
const WAD = 10n ** 18n
const root = fileURLToPath(new URL('../../../', import.meta.url))

let chain: TestChain

beforeAll(async () => {
  chain = await startTestChain(ANVIL_PORT, 1_000n)
}, 60_000)
afterAll(() => chain?.anvil.stop())

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed command output, checked field by field

/** The exact command line the lead puts in package.json's "markets" script. */
async function markets(...args: string[]): Promise<{ json: Json; code: number }> {
  const run = promisify(execFile)
  try {
    const { stdout } = await run(
      process.execPath,
      ['--import', './src/polyfills/register.js', 'src/node/cli/markets.ts', ...args],
      { cwd: root, env: { ...process.env, ...chain.env } },
    )
    return { json: JSON.parse(stdout) as Json, code: 0 }
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number }
    expect(e.stderr, 'nothing on stderr, no stack trace').toBe('')
    return { json: JSON.parse(e.stdout) as Json, code: e.code }
  }
}

async function shares(market: Address, outcome: number): Promise<bigint> {
  return chain.client.readContract({
    address: chain.deployment.markets!.dpmGateway,
    abi: dynamicParimutuelGatewayAbi,
    functionName: 'balanceOf',
    args: [market, chain.trader.address, BigInt(outcome)],
  })
}

describe('npm run markets: the full cycle on the local chain', () => {
  it('quotes, approves, buys, sells, and redeems after settlement, by exactly the quoted amounts', async () => {
    const listed = await markets('list', '--status', 'open', '--sort', 'created', '--limit', '3')
    expect(listed.code).toBe(0)
    expect(listed.json.total).toBe(4)
    expect(listed.json.markets.map((m: Json) => m.id)).toEqual(['lmsr:0', 'dpm:2', 'dpm:1'])

    const quote = await markets('quote-buy', 'dpm:0', 'Yes', '10')
    expect(quote.json.ok).toBe(true)
    const cost = BigInt(quote.json.quote.cost.raw)
    expect(quote.json.quote.gatewayQuote.raw).toBe(cost.toString())
    const market = quote.json.quote.address as Address

    const nonce = await chain.nonce()
    const refused = await markets('buy', 'dpm:0', 'Yes', '10')
    expect(refused).toMatchObject({ code: 1, json: { ok: false, code: 'approval-needed' } })
    expect(refused.json.error).toContain('npm run markets -- approve dpm:0')
    expect(await chain.nonce(), 'nothing was sent').toBe(nonce)

    const approved = await markets('approve', 'dpm:0', '100')
    expect(approved.json).toMatchObject({ ok: true, allowance: { value: '100', unit: 'tUSD' } })

    const before = await chain.balance()
    const bought = await markets('buy', 'dpm:0', 'Yes', '10')
    expect(bought.json.ok, JSON.stringify(bought.json)).toBe(true)
    expect(bought.json.trade.paid.raw).toBe(cost.toString())
    // the default bound: the quote + 1 %
    expect(BigInt(bought.json.trade.maxCost.raw)).toBe((cost * 10_100n) / 10_000n)
    expect(await chain.balance()).toBe(before - cost)
    expect(await shares(market, 0)).toBe(10n * WAD)

    const sellQuote = await markets('quote-sell', 'dpm:0', '0', '4.5')
    const proceeds = BigInt(sellQuote.json.quote.proceeds.raw)
    const sold = await markets(
      'sell',
      'dpm:0',
      'yes',
      '4.5',
      '--min-proceeds',
      sellQuote.json.quote.proceeds.value,
    )
    expect(sold.json.ok, JSON.stringify(sold.json)).toBe(true)
    expect(sold.json.trade.received.raw).toBe(proceeds.toString())
    expect(await chain.balance()).toBe(before - cost + proceeds)
    expect(await shares(market, 0)).toBe(55n * 10n ** 17n)

    // trading closes (30 days), the oracle settles "Yes"
    await chain.advance(30 * DAY + 3_600)
    await chain.settle(market, 0)
    const positions = await markets('positions')
    expect(positions.json.positions).toEqual([
      expect.objectContaining({ market: 'dpm:0', status: 'settled', action: 'redeem' }),
    ])
    const expected = await chain.client.simulateContract({
      account: chain.trader.address,
      address: chain.deployment.markets!.dpmGateway,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'redeem',
      args: [market],
    })
    const afterSale = await chain.balance()
    const redeemed = await markets('redeem', 'dpm:0')
    expect(redeemed.json).toMatchObject({
      ok: true,
      winningOutcome: { index: 0, label: 'Yes' },
      sharesIn: { value: '5.5' },
      received: { raw: expected.result[1].toString() },
    })
    expect(expected.result[1]).toBeGreaterThan(0n)
    expect(await chain.balance()).toBe(afterSale + expected.result[1])
    expect(await shares(market, 0)).toBe(0n)

    const again = await markets('redeem', 'dpm:0')
    expect(again).toMatchObject({ code: 1, json: { ok: false, code: 'nothing-to-redeem' } })
  }, 180_000)

  it('answers a bad command line with a usage error and exit code 2', async () => {
    const { json, code } = await markets('buy', 'dpm:0', 'Yes')
    expect(code).toBe(2)
    expect(json).toMatchObject({ ok: false, code: 'usage' })
    expect(json.error).toContain('Usage: npm run markets -- buy <market> <outcome> <shares>')
  }, 30_000)
})
