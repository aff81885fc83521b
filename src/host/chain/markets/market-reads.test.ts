// The market reads against anvil with the demo markets: what they return equals the maths and the
// gateways' own quotes, one refresh of every market is one HTTP request, and the events name the
// seeder's trades and the four creations.
import { createPublicClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../../../node/cli/anvil.ts'
import { mathsMarket, mathsProbabilities, mathsSpotPrices } from '../../../core/markets/market-maths.ts'
import type { MarketSnapshot } from '../../../core/markets/market-snapshot.ts'
import { quoteTrade } from '../../../core/markets/trade-quote.ts'
import { deployLocalChain } from '../deploy-local-chain.ts'
import type { ChainDeployment } from '../deployment.ts'
import { dynamicParimutuelGatewayAbi } from '../generated/DynamicParimutuelGateway.ts'
import { lmsrGatewayAbi } from '../generated/LmsrGateway.ts'
import { anvilAccount } from '../local-clients.ts'
import { readMarketEvents } from './market-events.ts'
import { listMarkets, readMarketPosition, readMarketSnapshot, readMarketStatics } from './market-reads.ts'
import { DEMO_MARKETS } from '../../demo/seed-demo-markets.ts'

// Fixed port for this file only (the markets range 19670–19679).
const ANVIL_PORT = 19675
const WAD = 10n ** 18n

let anvil: Anvil
let deployment: ChainDeployment
let client: PublicClient
let requests = 0

beforeAll(async () => {
  anvil = await startAnvil({ port: ANVIL_PORT })
  ;({ deployment } = await deployLocalChain({ rpcUrl: anvil.rpcUrl, genesisTime: 0, roundLength: 30 }))
  client = createPublicClient({
    transport: http(anvil.rpcUrl, { batch: true, onFetchRequest: () => void requests++ }),
  }) as PublicClient
}, 60_000)
afterAll(() => anvil?.stop())

async function snapshots(): Promise<MarketSnapshot[]> {
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
  const refs = await listMarkets(client, deployment.markets!, blockNumber)
  const full = await Promise.all(refs.map(async (r) => ({ ...r, ...(await readMarketStatics(client, r)) })))
  requests = 0
  const result = await Promise.all(
    full.map((r) =>
      readMarketSnapshot(client, r, { blockNumber, tokenDecimals: deployment.collateral!.decimals }),
    ),
  )
  expect(requests, 'one JSON-RPC batch for every market').toBe(1)
  return result
}

async function gatewayQuote(m: MarketSnapshot, side: 'buy' | 'sell', outcome: number, shares: bigint) {
  const functionName = side === 'buy' ? 'quoteBuyExactOut' : 'quoteSellExactIn'
  const args = [m.address, BigInt(outcome), shares] as const
  if (m.kind === 'dpm')
    return client.readContract({ address: m.gateway, abi: dynamicParimutuelGatewayAbi, functionName, args })
  const [tokens] = await client.readContract({ address: m.gateway, abi: lmsrGatewayAbi, functionName, args })
  return tokens
}

describe('market reads on the local chain', () => {
  it('lists the demo markets of both factories with their metadata', async () => {
    const list = await snapshots()
    expect(list.map((m) => m.kind)).toEqual(DEMO_MARKETS.map((d) => d.kind))
    expect(list.map((m) => m.metadata)).toEqual(DEMO_MARKETS.map((d) => d.metadata))
    for (const m of list) {
      expect(m.status).toBe(0)
      expect(m.supplies).toHaveLength(m.outcomeCount)
    }
  })

  it('reads prices and probabilities equal to the maths on the state it reads', async () => {
    for (const m of await snapshots()) {
      const maths = mathsMarket(m)
      expect(mathsSpotPrices(maths), m.address).toEqual(m.spotPrices)
      expect(mathsProbabilities(maths), m.address).toEqual(m.probabilities)
    }
  })

  it('quotes buys and sells exactly as the gateways do', async () => {
    let equal = 0
    for (const m of await snapshots())
      for (let outcome = 0; outcome < m.outcomeCount; outcome++)
        for (const shares of [10n ** 6n + 7n, WAD / 3n, 7n * WAD, 250n * WAD]) {
          const buy = quoteTrade(m, { side: 'buy', outcome, shares, slippageBps: 200 })
          const onChain = await gatewayQuote(m, 'buy', outcome, shares).catch((e: Error) => e)
          if (buy.ok) expect(buy.quote.tokens, `${m.kind} buy ${shares}`).toBe(onChain)
          if (buy.ok) equal++
          else expect(String(onChain)).toContain(buy.errorName)
          if (shares > m.supplies[outcome]!) continue
          const sell = quoteTrade(m, { side: 'sell', outcome, shares, slippageBps: 200 })
          const sold = await gatewayQuote(m, 'sell', outcome, shares).catch((e: Error) => e)
          if (sell.ok) expect(sell.quote.tokens, `${m.kind} sell ${shares}`).toBe(sold)
          else expect(String(sold)).toContain(sell.errorName)
          if (sell.ok) equal++
        }
    expect(equal, 'quotes compared (not refused)').toBeGreaterThan(30)
  })

  it('reads the seeder’s shares and the seeded trades and creations', async () => {
    const list = await snapshots()
    const seeder = anvilAccount(0).address
    const block = await client.getBlockNumber({ cacheTime: 0 })
    for (const [i, m] of list.entries()) {
      const position = await readMarketPosition(client, m, seeder, deployment.collateral!.address, block)
      const bought = m.supplies.map((_, o) =>
        DEMO_MARKETS[i]!.trades.filter(([t]) => t === o).reduce((s, [, n]) => s + n * WAD, 0n),
      )
      expect(position.shares).toEqual(bought)
    }
    const events = await readMarketEvents(client, deployment.markets!, 0n, block)
    expect(events.created.map((c) => c.kind)).toEqual(DEMO_MARKETS.map((d) => d.kind))
    expect(events.trades).toHaveLength(DEMO_MARKETS.reduce((n, d) => n + d.trades.length, 0))
    expect(events.trades.every((t) => t.side === 'buy' && t.trader === seeder)).toBe(true)
  })
})
