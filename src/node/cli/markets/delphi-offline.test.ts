// Delphi’s networks, offline: anvil as Delphi’s testnet (chain 685685) with our DPM gateway at the
// testnet's automated-settlement addresses and our LMSR gateway at the competition's, plus a local
// server answering Delphi’s REST and subgraph shapes from that chain. The market commands run with
// `--network testnet` through the same code as against the real network: they list (REST), route each
// market to its gateway (`marketProxiesExist` on every factory), quote (local maths = the gateway's
// quote), approve, buy, sell, show positions (REST), redeem after settlement and show history
// (subgraph); a bad API key, the server down, a stale subgraph and a malformed answer each give their
// own clear result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DELPHI_NETWORKS } from '../../../host/delphi/networks.ts'
import { connectBackend } from './connect.ts'
import { startDelphiTestChain, STAND_IN_GATEWAYS, type DelphiTestChain } from './delphi-test-chain.ts'
import { standInReeReceipt, startDelphiTestServer, type DelphiTestServer } from './delphi-test-server.ts'
import { runMarkets } from './run-markets.ts'

// Fixed ports for this file only (Delphi offline tests use 19740–19749); 19742 stays closed.
const ANVIL_PORT = 19740
const SERVER_PORT = 19741
const CLOSED_PORT = 19742
const API_KEY = 'stand-in-key'
const DAY = 86_400

let chain: DelphiTestChain
let server: DelphiTestServer

beforeAll(async () => {
  chain = await startDelphiTestChain(ANVIL_PORT, 1_000n)
  server = await startDelphiTestServer({
    port: SERVER_PORT,
    client: chain.client,
    markets: chain.markets,
    token: chain.token,
    apiKey: API_KEY,
  })
}, 90_000)
afterAll(async () => {
  await server?.close()
  await chain?.anvil.stop()
})

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed command output, checked field by field

/** Delphi’s testnet gateways, with the competition's LMSR gateway (same chain) as a second route. */
const GATEWAYS = [...DELPHI_NETWORKS.testnet.gateways, STAND_IN_GATEWAYS[1]!]

async function delphi(
  argv: string[],
  env: Record<string, string> = {},
  urls: { rest?: string; subgraph?: string } = {},
): Promise<Json & { exitCode: number }> {
  const line = [
    ...argv,
    '--network',
    'testnet',
    '--rpc',
    chain.anvil.rpcUrl,
    '--rest',
    urls.rest ?? server.restUrl,
    '--subgraph',
    urls.subgraph ?? server.subgraphUrl,
  ]
  const { text, exitCode } = await runMarkets(
    line,
    { DELPHI_API_KEY: API_KEY, TABSWARM_PRIVATE_KEY: chain.trader.privateKey, ...env },
    (flags, e) => connectBackend(flags, e, { gateways: GATEWAYS }),
  )
  return { ...(JSON.parse(text) as Json), exitCode }
}

describe('market commands on Delphi’s testnet, offline', () => {
  it('lists from the REST API and routes each market to the gateway whose factory deployed it', async () => {
    server.extraMarkets = ['0x00000000000000000000000000000000000d1e11']
    const list = await delphi(['list'])
    server.extraMarkets = []
    expect(list).toMatchObject({ ok: true, network: 'testnet', chainId: 685685, total: 4 })
    const kinds = list.markets.map((m: Json) => m.kind).sort()
    expect(kinds).toEqual(['dpm', 'dpm', 'dpm', 'lmsr'])
    // ids are the addresses (Delphi has no factory index)
    for (const m of list.markets) expect(m.id).toBe(m.address)

    const lmsr = list.markets.find((m: Json) => m.kind === 'lmsr')
    const receipt = standInReeReceipt('Yes')
    server.settlements = { [lmsr.address.toLowerCase()]: { verifiable: true, proof: receipt } }
    const show = await delphi(['show', lmsr.address])
    server.settlements = {}
    expect(show.market).toMatchObject({ kind: 'lmsr', gateway: STAND_IN_GATEWAYS[1]!.gateway })
    expect(show.market.question).toBe('Will a training receipt fail verification this week?')
    // what Delphi's API says of the settlement, the proof byte for byte
    expect(show.market.settlement).toEqual({ verifiable: true, proof: receipt })
    const dpm = list.markets.find((m: Json) => m.question?.startsWith('Will the swarm'))
    const dpmShow = await delphi(['show', dpm.address])
    expect(dpmShow.market.gateway).toBe(STAND_IN_GATEWAYS[0]!.gateway)
    expect(dpmShow.market.settlement).toEqual({ verifiable: false, proof: null })

    const stray = await delphi(['show', '0x00000000000000000000000000000000000d1e11'])
    expect(stray).toMatchObject({ ok: false, code: 'unknown-market' })
  }, 60_000)

  it('quotes, approves, buys and sells on both gateways, shows positions, redeems after settlement', async () => {
    const list = await delphi(['list'])
    const dpm = list.markets.find((m: Json) => m.question?.startsWith('Will the swarm')).address
    const lmsr = list.markets.find((m: Json) => m.kind === 'lmsr').address

    const quote = await delphi(['quote-buy', dpm, 'Yes', '10'])
    expect(quote.ok).toBe(true)
    expect(quote.quote.cost.raw).toBe(quote.quote.gatewayQuote.raw)

    const refused = await delphi(['buy', dpm, 'Yes', '10'])
    expect(refused).toMatchObject({ ok: false, code: 'approval-needed' })

    for (const market of [dpm, lmsr]) expect((await delphi(['approve', market])).ok).toBe(true)
    const before = await chain.balance()
    const bought = await delphi(['buy', dpm, 'Yes', '10'])
    expect(bought.ok).toBe(true)
    expect(bought.trade.paid.raw).toBe(quote.quote.cost.raw)
    const sold = await delphi(['sell', dpm, 'Yes', '4'])
    expect(sold.ok).toBe(true)
    const lmsrBuy = await delphi(['buy', lmsr, 'No', '5'])
    expect(lmsrBuy.ok).toBe(true)
    expect(await chain.balance()).toBe(
      before -
        BigInt(bought.trade.paid.raw) +
        BigInt(sold.trade.received.raw) -
        BigInt(lmsrBuy.trade.paid.raw),
    )

    const positions = await delphi(['positions'])
    expect(positions.positions.map((p: Json) => p.address).sort()).toEqual([dpm, lmsr].sort())
    const yes = positions.positions.find((p: Json) => p.address === dpm).outcomes
    expect(yes).toMatchObject([{ label: 'Yes', shares: { value: '6' } }])

    // trading closes (30 days), the oracle settles "Yes"
    await chain.advance(30 * DAY + 3_600)
    await chain.settle(dpm, 0)
    const beforeRedeem = await chain.balance()
    const redeemed = await delphi(['redeem', dpm])
    expect(redeemed).toMatchObject({ ok: true, sharesIn: { value: '6' } })
    expect(await chain.balance()).toBe(beforeRedeem + BigInt(redeemed.received.raw))

    const history = await delphi(['history', dpm])
    expect(history).toMatchObject({ ok: true, warning: null })
    const mine = history.entries.filter(
      (e: Json) => e.trader === chain.trader.address || e.kind === 'settled',
    )
    expect(mine.map((e: Json) => e.kind)).toEqual(['buy', 'sell', 'settled', 'redeem'])
    expect(mine[0].paid.raw).toBe(bought.trade.paid.raw)
  }, 120_000)

  it('warns when the subgraph trails the chain', async () => {
    const dpm = (await delphi(['list'])).markets[0].address
    await chain.mine(300)
    server.lag = 250n
    const stale = await delphi(['history', dpm])
    server.lag = 0n
    expect(stale.ok).toBe(true)
    expect(stale.warning).toMatch(/subgraph is 250 blocks behind the chain/)
    expect(BigInt(stale.chainHead) - BigInt(stale.indexedBlock)).toBe(250n)
    const fresh = await delphi(['history', dpm])
    expect(fresh.warning).toBeNull()
  }, 60_000)

  it('says which service failed and how: bad API key, server down, malformed answer', async () => {
    const badKey = await delphi(['list'], { DELPHI_API_KEY: 'wrong' })
    expect(badKey).toMatchObject({ ok: false, code: 'bad-api-key', exitCode: 1 })
    expect(badKey.error).toMatch(/refused the API key \(HTTP 401\).*--api-key or set DELPHI_API_KEY/)

    const noKey = await delphi(['list'], { DELPHI_API_KEY: '' })
    expect(noKey).toMatchObject({ ok: false, code: 'bad-api-key' })

    const down = await delphi(['list'], {}, { rest: `http://127.0.0.1:${CLOSED_PORT}` })
    expect(down).toMatchObject({ ok: false, code: 'unreachable' })
    expect(down.error).toMatch(/Delphi’s testnet API at http:\/\/127\.0\.0\.1:19742 cannot be reached/)

    server.corrupt = true
    const malformed = await delphi(['list'])
    server.corrupt = false
    expect(malformed).toMatchObject({ ok: false, code: 'bad-response' })
    expect(malformed.error).toMatch(/markets\[0\]\.status should be one of open/)
  }, 60_000)
})
