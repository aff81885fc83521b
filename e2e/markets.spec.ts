// The Markets view against a local chain with the demo markets: the list and a market page show the
// chain's prices and implied probabilities (equal to the local maths); two tabs with their own burners
// trade one market and each sees the other's trade and the new prices within 2 s; a buy whose price
// moved past its slippage bound reverts as a sentence and leaves the panel consistent.
import '../src/polyfills/promise-with-resolvers.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import type { Address } from 'viem'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { mathsMarket, mathsProbabilities, mathsSpotPrices } from '../src/core/markets/market-maths.ts'
import type { MarketSnapshot } from '../src/core/markets/market-snapshot.ts'
import { quoteTrade } from '../src/core/markets/trade-quote.ts'
import { launchBrowser } from './browser.ts'
import {
  buy,
  confirmBuy,
  confirmDialog,
  fundedBurner,
  gatewayBuyQuote,
  marketsFromNode,
  outcomeRows,
  sharesOnChain,
  startTrade,
  tradeHashes,
} from './market-actions.ts'
import { chainFromNode } from './wallet-actions.ts'
import { viewLink } from './tab-actions.ts'

const WAD = 10n ** 18n

let tmp: string
let stack: Stack
let browser: Browser
let tabA: Page
let tabB: Page
let burnerA: Address
let burnerB: Address
/** the first demo market (DPM, Yes / No) */
let market: MarketSnapshot

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tabswarm-markets-'))
  stack = await startStack({
    relayPort: 19670,
    relayHttpPort: 19671,
    appPort: 19673,
    chain: { port: 19672, stateFile: join(tmp, 'anvil-state.json') },
  })
  browser = await launchBrowser()
  // two browser contexts: two profiles, two burners
  tabA = await (await browser.newContext()).newPage()
  tabB = await (await browser.newContext()).newPage()
  ;[burnerA, burnerB] = await Promise.all([fundedBurner(tabA, stack.url), fundedBurner(tabB, stack.url)])
  expect(burnerA).not.toBe(burnerB)
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

const chain = () => chainFromNode(stack)
const deployment = () => stack.deployment!
const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true })

/** The market page shows exactly the chain's prices and probabilities, which equal the maths. */
async function expectPageMatchesChain(page: Page): Promise<MarketSnapshot> {
  let onChain: MarketSnapshot | undefined
  let shown = ''
  const text = (rows: bigint[][]) => rows.map((r) => r.join('/')).join(' ')
  await expect
    .poll(
      async () => {
        const markets = await marketsFromNode(await chain(), deployment())
        onChain = markets.find((m) => m.address === market.address)!
        shown = text((await outcomeRows(page)).map((r) => [r.price, r.probability]))
        return shown === text(onChain.spotPrices.map((p, i) => [p, onChain!.probabilities[i]!]))
      },
      { timeout: 5_000, intervals: [100, 200], message: `the page shows ${shown}` },
    )
    .toBe(true)
  const maths = mathsMarket(onChain!)
  expect(mathsSpotPrices(maths)).toEqual(onChain!.spotPrices)
  expect(mathsProbabilities(maths)).toEqual(onChain!.probabilities)
  return onChain!
}

test('the list shows the demo markets; filters, search and sort work', async () => {
  await viewLink(tabA, 'Markets').click()
  const cards = tabA.getByTestId('market-card')
  await expect(cards).toHaveCount(4)
  const onChain = await marketsFromNode(await chain(), deployment())
  expect(onChain.map((m) => m.kind)).toEqual(['dpm', 'dpm', 'dpm', 'lmsr'])
  market = onChain[0]!
  // default sort: liquidity (pool), largest first
  const byPool = [...onChain].sort((a, b) => (a.pool > b.pool ? -1 : a.pool < b.pool ? 1 : 0))
  await expect
    .poll(() => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-address'))))
    .toEqual(byPool.map((m) => m.address))
  await tabA.getByLabel('Search markets').fill('receipt verification')
  await expect(cards).toHaveCount(1)
  await expect(cards.first()).toContainText('LMSR')
  await tabA.getByLabel('Search markets').fill('')
  await tabA.getByTestId('markets-status-2').click()
  await expect(tabA.getByTestId('markets-empty')).toBeVisible()
  await tabA.getByTestId('markets-status-0').click()
  await expect(cards).toHaveCount(4)
  await tabA.getByRole('combobox', { name: /^Sort/ }).selectOption('deadline')
  await expect(cards.first()).toHaveAttribute('data-address', onChain[3]!.address) // 7 days
  await tabA.getByRole('combobox', { name: /^Sort/ }).selectOption('liquidity')
  await shot(tabA, 'markets-list')
})

test('a market page shows prices and implied probabilities equal to the chain and the maths', async () => {
  await tabA.locator(`[data-testid="market-card"][data-address="${market.address}"]`).click()
  await expect(tabA.getByTestId('market-question')).toHaveText(market.metadata!.question)
  await expect(tabA.getByTestId('market-criteria')).toHaveText(market.metadata!.resolutionCriteria)
  await expect(tabA.getByTestId('market-fee')).toHaveText('2 %')
  await expect(tabA.getByTestId('market-status')).toHaveText('Open')
  const m = await expectPageMatchesChain(tabA)
  // labelled separately: a DPM price is not the probability
  const row = tabA.getByTestId('outcome-row').first()
  await expect(row.getByTestId('outcome-price')).toHaveText(/^\d+\.\d+ tUSD$/)
  await expect(row.getByTestId('outcome-probability')).toHaveText(/^\d+\.\d\d %$/)
  expect(m.spotPrices[0]).not.toBe((m.probabilities[0]! * 10n ** 6n) / WAD)
  // the live quote is the gateway's quote
  await tabA.getByLabel(/^Shares to (buy|sell)$/).fill('10')
  const local = await tabA.getByTestId('quote-tokens').getAttribute('data-units')
  expect(BigInt(local!)).toBe(await gatewayBuyQuote(await chain(), m, 0, 10n * WAD))
  await tabB.goto(`${stack.url}#/markets/${market.address}`)
  await expectPageMatchesChain(tabB)
})

test('two tabs trade one market and each sees the other’s trade and prices within 2 s', async () => {
  const before = await outcomeRows(tabB)
  const hash = await buy(tabA, 1, '10')
  const confirmedAt = Date.now()
  await expect.poll(() => tradeHashes(tabB), { timeout: 2_000, intervals: [50] }).toContain(hash)
  await expect
    .poll(async () => (await outcomeRows(tabB))[1]!.probability, { timeout: 2_000, intervals: [50] })
    .toBeGreaterThan(before[1]!.probability)
  const seenAfterMs = Date.now() - confirmedAt
  console.log(`tab B saw tab A's trade ${seenAfterMs} ms after it was confirmed`)
  expect(seenAfterMs).toBeLessThan(2_000)
  await expectPageMatchesChain(tabB)
  // tab A holds its shares; the trade row names it "you" in A only
  await expect.poll(async () => (await outcomeRows(tabA))[1]!.shares).toBe(10n * WAD)
  const rowA = tabA.locator(`[data-testid="trade-row"][data-hash="${hash}"]`)
  await expect(rowA).toHaveAttribute('data-trader', burnerA)
  await expect(rowA).toContainText('you')
  await expect(tabB.locator(`[data-testid="trade-row"][data-hash="${hash}"]`)).not.toContainText('you')

  // and the other way round
  const hashB = await buy(tabB, 0, '5')
  await expect.poll(() => tradeHashes(tabA), { timeout: 2_000, intervals: [50] }).toContain(hashB)
  await expectPageMatchesChain(tabA)
  await shot(tabB, 'market-after-trades')
})

test('a buy whose price moved past its slippage bound reverts as a sentence; the panel stays consistent', async () => {
  // tab B's own last buy may not be on its page yet: start from the shares the chain says it holds
  const sharesBefore = await sharesOnChain(await chain(), market, burnerB)
  await expect.poll(async () => (await outcomeRows(tabB)).map((r) => r.shares)).toEqual(sharesBefore)
  // tab B asks for 20 shares of "No" with 0 bps of slippage; while its confirmation is open, tab A
  // buys "No" too, so B's maximum cost is below the new price
  await startTrade(tabB, { side: 'buy', outcome: 1, shares: '20', slippageBps: 0 })
  // the allowance left by the last buy is short of this one's maximum cost: approve first
  await confirmDialog(tabB, /^Allow the market to take up to [\d.]+ tUSD$/)
  await expect(tabB.getByTestId('approval-status')).toHaveAttribute('data-phase', 'confirmed')
  await expect(tabB.getByRole('dialog').locator('h2')).toHaveText('Buy 20 shares of “No”')
  await shot(tabB, 'market-confirm-buy')
  const balance = tabB.getByTestId('trade-balance')
  const balanceBefore = await balance.getAttribute('data-units')
  await buy(tabA, 1, '10')
  await expect.poll(async () => (await outcomeRows(tabB))[1]!.shares).toBe(sharesBefore[1])
  await confirmDialog(tabB, /^Buy/)
  const status = tabB.getByTestId('trade-status')
  await expect(status).toHaveAttribute('data-phase', 'failed')
  await expect(tabB.getByTestId('trade-status-error')).toHaveText(
    /^Slippage exceeded: the trade now costs [\d.]+ tUSD, more than your maximum of [\d.]+ tUSD\. The price moved; check the new quote, or allow more slippage, and try again\.$/,
  )
  await shot(tabB, 'market-slippage-reverted')

  // consistent afterwards: no shares bought, the quote follows the new state, the button works again
  await tabB.waitForTimeout(1_000)
  expect((await outcomeRows(tabB)).map((r) => r.shares)).toEqual(sharesBefore)
  await expect(balance).toHaveAttribute('data-units', balanceBefore!)
  const m = await expectPageMatchesChain(tabB)
  const quoted = BigInt((await tabB.getByTestId('quote-tokens').getAttribute('data-units'))!)
  expect(quoted).toBe(await gatewayBuyQuote(await chain(), m, 1, 20n * WAD))
  const local = quoteTrade(m, { side: 'buy', outcome: 1, shares: 20n * WAD, slippageBps: 0 })
  expect(local.ok && local.quote.tokens).toBe(quoted)
  await expect(tabB.getByRole('button', { name: /^(Buy|Sell) “/ })).toBeEnabled()
  await tabB.getByLabel('Slippage (bps)').fill('200')
  await tabB.getByRole('button', { name: /^(Buy|Sell) “/ }).click()
  await confirmBuy(tabB)
  await expect.poll(async () => (await outcomeRows(tabB))[1]!.shares).toBe(sharesBefore[1]! + 20n * WAD)
  await shot(tabB, 'market-after-retry')
})

test('selling exact shares pays the quoted proceeds and the other tab sees the sale', async () => {
  await expect.poll(async () => (await outcomeRows(tabA))[1]!.shares).toBe(20n * WAD)
  await tabA.getByRole('button', { name: 'Sell shares' }).click()
  await tabA.getByRole('combobox', { name: /^Outcome/ }).selectOption('1')
  await tabA.getByRole('button', { name: 'All', exact: true }).click()
  await expect(tabA.getByLabel(/^Shares to (buy|sell)$/)).toHaveValue('20')
  await expect(tabA.getByTestId('trade-quote')).toHaveAttribute('data-ok', 'true')
  // tab B's last buy moved this price: wait until tab A quotes on the chain's current state
  const m = await expectPageMatchesChain(tabA)
  const local = quoteTrade(m, { side: 'sell', outcome: 1, shares: 20n * WAD, slippageBps: 200 })
  if (!local.ok) throw new Error(`the maths refuses the sell: ${JSON.stringify(local)}`)
  const quoteUnits = async () => BigInt((await tabA.getByTestId('quote-tokens').getAttribute('data-units'))!)
  await expect.poll(quoteUnits).toBe(local.quote.tokens)
  const quoted = await quoteUnits()
  const balanceBefore = BigInt((await tabA.getByTestId('trade-balance').getAttribute('data-units'))!)
  await tabA.getByRole('button', { name: /^(Buy|Sell) “/ }).click()
  await confirmDialog(tabA, /^Sell 20 shares of “No”$/)
  await expect(tabA.getByTestId('trade-status')).toHaveAttribute('data-phase', 'confirmed')
  const hash = (await tabA.getByTestId('trade-status-hash').getAttribute('title'))!
  await expect.poll(async () => (await outcomeRows(tabA))[1]!.shares).toBe(0n)
  await expect
    .poll(async () => BigInt((await tabA.getByTestId('trade-balance').getAttribute('data-units'))!))
    .toBe(balanceBefore + quoted)
  const row = tabB.locator(`[data-testid="trade-row"][data-hash="${hash}"]`)
  await expect(row).toHaveAttribute('data-side', 'sell', { timeout: 2_000 })
  await expect(row).toHaveAttribute('data-shares', String(20n * WAD))
  await expectPageMatchesChain(tabB)
  await shot(tabA, 'market-after-sell')
})

test('an unlimited approval is asked once; later buys go straight to the trade', async () => {
  await tabB.getByRole('button', { name: 'Buy shares' }).click()
  await tabB.getByRole('checkbox', { name: /^Approve the market for any amount/ }).check()
  await startTrade(tabB, { side: 'buy', outcome: 0, shares: '20' })
  await confirmDialog(tabB, /^Allow the market to take up to any amount of tUSD$/)
  await confirmDialog(tabB, /^Buy 20 shares of “Yes”$/)
  await expect(tabB.getByTestId('trade-status')).toHaveAttribute('data-phase', 'confirmed')
  await startTrade(tabB, { side: 'buy', outcome: 1, shares: '1' })
  await confirmDialog(tabB, /^Buy 1 shares of “No”$/)
  await expect(tabB.getByTestId('trade-status')).toHaveAttribute('data-phase', 'confirmed')
  await expect(tabB.getByTestId('approval-status')).toHaveAttribute('data-phase', 'idle')
})
