// What a trader does in the Markets view, and what the market specs read back from it and from the chain.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, type Browser, type Page } from '@playwright/test'
import { createTestClient, http, type Address } from 'viem'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { listMarkets, readMarketSnapshot, readMarketStatics } from '../src/host/chain/markets/market-reads.ts'
import { collateralTokenAbi } from '../src/host/chain/generated/CollateralToken.ts'
import { dynamicParimutuelGatewayAbi } from '../src/host/chain/generated/DynamicParimutuelGateway.ts'
import type { LocalClients } from '../src/host/chain/local-clients.ts'
import type { ChainDeployment } from '../src/host/chain/deployment.ts'
import type { MarketSnapshot } from '../src/core/markets/market-snapshot.ts'
import { launchBrowser } from './browser.ts'
import { burnerReady } from './wallet-actions.ts'

export interface MarketTab {
  stack: Stack
  browser: Browser
  tab: Page
  /** the tab's burner, funded with test tokens */
  burner: Address
  stop(): Promise<void>
}

/**
 * A stack with a local chain (its state in a fresh temp dir) and one tab whose burner holds test tokens.
 * Ports: relay `firstPort`, its HTTP +1, the chain +2, the app +3.
 */
export async function startMarketTab(
  name: string,
  firstPort: number,
  viewport = { width: 1280, height: 720 },
): Promise<MarketTab> {
  const tmp = mkdtempSync(join(tmpdir(), `tabswarm-${name}-`))
  const stack = await startStack({
    relayPort: firstPort,
    relayHttpPort: firstPort + 1,
    appPort: firstPort + 3,
    chain: { port: firstPort + 2, stateFile: join(tmp, 'anvil-state.json') },
    // TABSWARM_DIST: a build of one's own, when others share the checkout's dist/
    dist: process.env.TABSWARM_DIST,
  })
  const browser = await launchBrowser()
  const tab = await (await browser.newContext({ viewport })).newPage()
  const burner = await fundedBurner(tab, stack.url)
  return {
    stack,
    browser,
    tab,
    burner,
    async stop() {
      await browser.close()
      await stack.stop()
      rmSync(tmp, { recursive: true, force: true })
    },
  }
}

/** Opens the app in the Wallet view, waits for the funded burner and gets test tokens from the faucet. */
export async function fundedBurner(page: Page, url: string): Promise<Address> {
  await page.goto(`${url}#/wallet`)
  const address = await burnerReady(page)
  await page.getByRole('button', { name: /^Get test / }).click()
  await expect(page.getByTestId('faucet-status')).toHaveAttribute('data-phase', 'confirmed')
  await expect(page.getByTestId('collateral-balance')).toHaveAttribute('data-units', /^[1-9]\d*$/)
  return address
}

/** Every market as the chain has it now, read from Node the way the app reads it. */
export async function marketsFromNode(
  chain: LocalClients,
  deployment: ChainDeployment,
): Promise<MarketSnapshot[]> {
  const blockNumber = await chain.client.getBlockNumber({ cacheTime: 0 })
  const refs = await listMarkets(chain.client, deployment.markets!, blockNumber)
  return Promise.all(
    refs.map(async (r) =>
      readMarketSnapshot(
        chain.client,
        { ...r, ...(await readMarketStatics(chain.client, r)) },
        { blockNumber, tokenDecimals: deployment.collateral!.decimals },
      ),
    ),
  )
}

/** The gateway's own quote for buying `shares` of `outcome`. */
export async function gatewayBuyQuote(
  chain: LocalClients,
  m: MarketSnapshot,
  outcome: number,
  shares: bigint,
) {
  return chain.client.readContract({
    address: m.gateway,
    abi: dynamicParimutuelGatewayAbi,
    functionName: 'quoteBuyExactOut',
    args: [m.address, BigInt(outcome), shares],
  })
}

/** The wallet's shares of every outcome of `m`, read from the gateway. */
export async function sharesOnChain(
  chain: LocalClients,
  m: MarketSnapshot,
  owner: Address,
): Promise<bigint[]> {
  return Promise.all(
    m.spotPrices.map((_, i) =>
      chain.client.readContract({
        address: m.gateway,
        abi: dynamicParimutuelGatewayAbi,
        functionName: 'balanceOf',
        args: [m.address, owner, BigInt(i)],
      }),
    ),
  )
}

export interface OutcomeRow {
  price: bigint
  probability: bigint
  shares: bigint
}

export async function outcomeRows(page: Page): Promise<OutcomeRow[]> {
  const rows = await page
    .getByTestId('outcome-row')
    .evaluateAll((els) =>
      els.map((r) => [
        r.getAttribute('data-price-units') ?? '0',
        r.getAttribute('data-probability-wad') ?? '0',
        r.getAttribute('data-shares') ?? '0',
      ]),
    )
  return rows.map(([price, probability, shares]) => ({
    price: BigInt(price!),
    probability: BigInt(probability!),
    shares: BigInt(shares!),
  }))
}

export async function tradeHashes(page: Page): Promise<string[]> {
  return page.getByTestId('trade-row').evaluateAll((els) => els.map((r) => r.getAttribute('data-hash') ?? ''))
}

/** Fills the trade panel (side, outcome, shares, slippage) and clicks the trade button. */
export async function startTrade(
  page: Page,
  t: { side: 'buy' | 'sell'; outcome: number; shares: string; slippageBps?: number },
): Promise<void> {
  await page.getByRole('button', { name: t.side === 'buy' ? 'Buy shares' : 'Sell shares' }).click()
  await page.getByRole('combobox', { name: /^Outcome/ }).selectOption(String(t.outcome))
  await page.getByLabel(/^Shares to (buy|sell)$/).fill(t.shares)
  await page.getByLabel('Slippage (bps)').fill(String(t.slippageBps ?? 200))
  await expect(page.getByTestId('trade-quote')).toHaveAttribute('data-ok', 'true')
  await expect(page.getByTestId('trade-problem')).toHaveCount(0)
  await page.getByRole('button', { name: /^(Buy|Sell) “/ }).click()
}

/** Answers the burner's confirmation dialog whose title matches `title`. */
export async function confirmDialog(page: Page, title: RegExp): Promise<void> {
  const dialog = page.getByRole('dialog')
  await expect(dialog.locator('h2')).toHaveText(title)
  await dialog.getByTestId('confirm-ok').click()
}

/** Confirms the approval when the tab asks for one, then the buy; resolves when the buy is confirmed. */
export async function confirmBuy(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog').locator('h2')
  await expect(dialog).toHaveText(/^(Allow|Buy)/)
  if ((await dialog.textContent())!.startsWith('Allow')) await confirmDialog(page, /^Allow/)
  await confirmDialog(page, /^Buy/)
  await expect(page.getByTestId('trade-status')).toHaveAttribute('data-phase', 'confirmed')
}

/** A whole buy from a tab that may need to approve first; returns the trade's transaction hash. */
export async function buy(page: Page, outcome: number, shares: string, slippageBps = 200): Promise<string> {
  await startTrade(page, { side: 'buy', outcome, shares, slippageBps })
  await confirmBuy(page)
  return (await page.getByTestId('trade-status-hash').getAttribute('title'))!
}

/** Moves the chain's clock forward by `seconds` and mines a block at the new time (anvil). */
export async function advanceChainTime(rpcUrl: string, seconds: number): Promise<void> {
  const test = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
  await test.increaseTime({ seconds })
  await test.mine({ blocks: 1 })
}

/** The oracle (anvil account #0, the local oracle relayer) settles `m` with `winner`. */
export async function settleAsOracle(chain: LocalClients, m: MarketSnapshot, winner: number): Promise<void> {
  const hash = await chain.wallet.writeContract({
    address: m.gateway,
    abi: dynamicParimutuelGatewayAbi,
    functionName: 'settleMarket',
    args: [m.address, BigInt(winner)],
  })
  const receipt = await chain.client.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
}

/** The collateral balance of `owner`, read from the chain. */
export async function collateralOnChain(
  chain: LocalClients,
  deployment: ChainDeployment,
  owner: Address,
): Promise<bigint> {
  return chain.client.readContract({
    address: deployment.collateral!.address,
    abi: collateralTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  })
}

/** What the gateway itself would pay `owner` for redeeming (settled) or liquidating `outcomes` (ended). */
export async function gatewayExitQuote(
  chain: LocalClients,
  m: MarketSnapshot,
  owner: Address,
  exit: { redeem: true } | { liquidate: number[] },
): Promise<bigint> {
  const target = { account: owner, address: m.gateway, abi: dynamicParimutuelGatewayAbi } as const
  if ('redeem' in exit) {
    const { result } = await chain.client.simulateContract({
      ...target,
      functionName: 'redeem',
      args: [m.address],
    })
    return result[1]
  }
  const { result } = await chain.client.simulateContract({
    ...target,
    functionName: 'liquidate',
    args: [m.address, exit.liquidate.map(BigInt)],
  })
  return result[1]
}
