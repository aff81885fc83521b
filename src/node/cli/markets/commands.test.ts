// The market commands in-process against anvil with the demo markets: reads without a key, every bad
// input refused with its code before anything is sent (the trader's nonce and balance do not move), a
// chain revert decoded into its code and sentence, and a liquidation of an expired market paying
// exactly what the gateway's simulation says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anvilAccount } from '../../../host/chain/local-clients.ts'
import { dynamicParimutuelGatewayAbi } from '../../../host/chain/generated/DynamicParimutuelGateway.ts'
import { CommandError } from './command-error.ts'
import { connectBackend } from './connect.ts'
import { runMarkets } from './run-markets.ts'
import { startTestChain, type TestChain } from './test-chain.ts'

// Fixed port for this file only (the market commands use 19700–19703); 19702 stays closed.
const ANVIL_PORT = 19701
const CLOSED_PORT = 19702
const DAY = 86_400
const WAD = 10n ** 18n

let chain: TestChain

beforeAll(async () => {
  chain = await startTestChain(ANVIL_PORT, 50n)
}, 60_000)
afterAll(() => chain?.anvil.stop())

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed command output, checked field by field

async function run(
  argv: string[],
  env: Record<string, string> = chain.env,
): Promise<Json & { exitCode: number }> {
  const { text, exitCode } = await runMarkets(argv, env)
  return { ...(JSON.parse(text) as Json), exitCode }
}

describe('market commands on the local chain', () => {
  it('reads without a key: list, show, positions of any address', async () => {
    const env = { TABSWARM_DEPLOYMENT: chain.deploymentFile }
    const list = await run(['list', '--search', 'peers'], env)
    expect(list).toMatchObject({ ok: true, total: 4, matched: 1, markets: [{ id: 'dpm:2' }] })
    const show = await run(['show', 'dpm:1'], env)
    expect(show.market.outcomes.map((o: Json) => o.label)).toEqual([
      'Arithmetic',
      'Base conversion',
      'Fractions',
      'Propositional logic',
    ])
    // the local chain has no settlement API: no verifiable flag, no proof
    expect(show.market.settlement).toBeNull()
    const byAddress = await run(['show', show.market.address], env)
    expect(byAddress.market.id).toBe('dpm:1')
    const seeder = await run(['positions', '--address', anvilAccount(0).address], env)
    expect(seeder.positions.map((p: Json) => p.market)).toEqual(['dpm:0', 'dpm:1', 'dpm:2', 'lmsr:0'])
    expect(seeder.positions[0].outcomes[0]).toMatchObject({ label: 'Yes', shares: { value: '20' } })
    // history from the gateways' events: the seeder's opening buy
    const history = await run(['history', 'dpm:0'], env)
    expect(history).toMatchObject({ ok: true, warning: null, indexedBlock: null, total: 1 })
    expect(history.entries[0]).toMatchObject({
      kind: 'buy',
      outcome: { label: 'Yes' },
      shares: { value: '20' },
    })
  })

  it('refuses bad input with a specific code before sending anything', async () => {
    const wrongChain = chain.deploymentVariant({ chainId: 685685 })
    const closed = chain.deploymentVariant({ rpcUrl: `http://127.0.0.1:${CLOSED_PORT}` })
    const noKey = { TABSWARM_DEPLOYMENT: chain.deploymentFile }
    const cases: [string[], string, Record<string, string>?][] = [
      [['buy', 'dpm:0', 'Yes', '0'], 'zero-amount'],
      [['buy', 'dpm:0', 'Yes', '-3'], 'negative-amount'],
      [['buy', 'dpm:0', 'Yes', '1.5x'], 'bad-amount'],
      [['buy', 'dpm:0', 'Yes', '0.0000000000001'], 'below-minimum'],
      [['buy', 'dpm:0', 'Yes', '100'], 'insufficient-balance'],
      [['buy', 'dpm:0', 'Yes', '1', '--max-cost', '0.5'], 'slippage-exceeded'],
      [['buy', 'dpm:0', 'Yes', '1'], 'approval-needed'],
      [['sell', 'dpm:0', 'No', '1000'], 'above-supply'],
      [['sell', 'dpm:0', 'No', '1'], 'insufficient-shares'],
      [['buy', 'dpm:9', 'Yes', '1'], 'unknown-market'],
      [['buy', 'dpm:0', 'Maybe', '1'], 'unknown-outcome'],
      [['redeem', 'dpm:0'], 'wrong-status'],
      [['liquidate', 'dpm:0'], 'wrong-status'],
      [['buy', 'dpm:0', 'Yes', '1', '--network', 'moon'], 'usage'],
      [['buy', 'dpm:0', 'Yes', '1', '--network', 'testnet'], 'bad-api-key'],
      [['buy', 'dpm:0', 'Yes', '1'], 'wrong-chain', { ...chain.env, TABSWARM_DEPLOYMENT: wrongChain }],
      [['buy', 'dpm:0', 'Yes', '1'], 'unreachable', { ...chain.env, TABSWARM_DEPLOYMENT: closed }],
      [['buy', 'dpm:0', 'Yes', '1'], 'no-key', noKey],
      [['buy', 'dpm:0', 'Yes', '1'], 'bad-key', { ...chain.env, TABSWARM_PRIVATE_KEY: '0x1234' }],
      [['buy', 'dpm:0', 'Yes', '1', '--max-cst', '2'], 'usage'],
    ]
    const [nonce, balance] = [await chain.nonce(), await chain.balance()]
    for (const [argv, code, env] of cases) {
      const out = await run(argv, env)
      expect({ argv, code: out.code, ok: out.ok }).toEqual({ argv, code, ok: false })
      expect(out.exitCode).toBe(code === 'usage' ? 2 : 1)
      // one sentence, never a stack trace
      expect(out.error, argv.join(' ')).toMatch(/^\S.{20,}$/s)
      expect(out.error).not.toMatch(/\n\s+at /)
    }
    expect(await chain.nonce(), 'no transaction was sent').toBe(nonce)
    expect(await chain.balance()).toBe(balance)
  }, 60_000)

  it('decodes a revert from the chain into its code and sentence, signing nothing', async () => {
    const backend = await connectBackend({}, chain.env)
    const m = await backend.market('dpm:0')
    const nonce = await chain.nonce()
    const error = await backend.buy(m, 0, WAD, 1n).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CommandError)
    expect(error).toMatchObject({ code: 'slippage-exceeded' })
    expect((error as Error).message).toMatch(
      /^Slippage exceeded: the trade now costs [\d.]+ tUSD, more than your maximum of <0.0001 tUSD/,
    )
    expect(await chain.nonce()).toBe(nonce)
  })

  it('liquidates an expired market for exactly the gateway’s value, once', async () => {
    expect((await run(['approve', 'dpm:1'])).allowance).toMatchObject({ value: 'unlimited' })
    expect((await run(['buy', 'dpm:1', 'Arithmetic', '2'])).ok).toBe(true)
    expect((await run(['buy', 'dpm:1', '2', '1.25'])).ok).toBe(true)
    // trading closed after 14 days, settlement window 12 h later: expired, nobody settled it
    await chain.advance(15 * DAY)
    expect(await run(['buy', 'dpm:1', '0', '1'])).toMatchObject({ ok: false, code: 'market-not-open' })
    const show = await run(['show', 'dpm:1'])
    expect(show.market.status).toBe('expired')
    const { result } = await chain.client.simulateContract({
      account: chain.trader.address,
      address: chain.deployment.markets!.dpmGateway,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'liquidate',
      args: [show.market.address, [0n, 2n]],
    })
    const before = await chain.balance()
    const out = await run(['liquidate', 'dpm:1'])
    expect(out).toMatchObject({
      ok: true,
      outcomes: [
        { index: 0, sharesIn: { value: '2' } },
        { index: 2, sharesIn: { value: '1.25' } },
      ],
      received: { raw: result[1].toString() },
    })
    expect(result[1]).toBeGreaterThan(0n)
    expect(await chain.balance()).toBe(before + result[1])
    expect(await run(['liquidate', 'dpm:1'])).toMatchObject({ ok: false, code: 'nothing-to-liquidate' })
  }, 60_000)
  it('gets test collateral from the faucet once, and says when the next one is allowed', async () => {
    const before = await chain.balance()
    const first = await run(['faucet'])
    expect(first).toMatchObject({ ok: true, received: { value: '1000', unit: 'tUSD' } })
    expect((await chain.balance()) - before).toBe(1000n * 10n ** 6n)
    const again = await run(['faucet'])
    expect(again).toMatchObject({ ok: false, code: 'faucet-too-soon', exitCode: 1 })
    expect(again.error).toMatch(/test tokens recently/)
    expect((await chain.balance()) - before).toBe(1000n * 10n ** 6n)
  })
})
