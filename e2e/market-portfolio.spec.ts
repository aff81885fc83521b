// The portfolio, the probability chart, the edge view and the create-market form on a local chain with
// the demo markets: the burner buys in two markets and the portfolio shows both, each holding valued at
// exactly the maths' sell quote (equal to the gateway's) against the cost its buys paid; the chart has
// a point per trade; after the oracle settles one market from Node, the batch redeem pays exactly the
// amount shown; a market created through the form appears in the list.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test, type Page } from '@playwright/test'
import type { Address } from 'viem'
import { dynamicParimutuelGatewayAbi } from '../src/host/chain/generated/DynamicParimutuelGateway.ts'
import { readMarketEvents, type TradeEvent } from '../src/host/chain/markets/market-events.ts'
import type { Stack } from '../src/node/cli/stack.ts'
import { completeBeliefs, edgeRows } from '../src/core/markets/edge.ts'
import { mathsMarket, sellMaths } from '../src/core/markets/market-maths.ts'
import type { MarketSnapshot } from '../src/core/markets/market-snapshot.ts'
import {
  advanceChainTime,
  buy,
  collateralOnChain,
  confirmDialog,
  gatewayExitQuote,
  marketsFromNode,
  settleAsOracle,
  sharesOnChain,
  startMarketTab,
  type MarketTab,
} from './market-actions.ts'
import { chainFromNode } from './wallet-actions.ts'
import { marketsLink } from './tab-actions.ts'

const WAD = 10n ** 18n
const DAY = 86_400
/** past demo market 0's trading deadline (30 d) and demo market 1's settlement deadline (14 d + ½ d) */
const CLOCK_JUMP_S = 30 * DAY + 3_600

let setup: MarketTab | undefined
let stack: Stack
let tab: Page
let burner: Address
/** demo market 0 (DPM, Yes / No, 30 days): bought "Yes", settled "Yes" */
let winner: MarketSnapshot
/** demo market 1 (DPM, 4 outcomes, 14 days): bought outcome 1, never settled */
let other: MarketSnapshot

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  setup = await startMarketTab('portfolio', 19750, { width: 1280, height: 900 })
  ;({ stack, tab, burner } = setup)
})

test.afterAll(() => setup?.stop())

const chain = () => chainFromNode(stack)
const shot = (name: string) => tab.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true })
const entry = (m: MarketSnapshot) =>
  tab.locator(`[data-testid="portfolio-entry"][data-address="${m.address}"]`)

/** Every trade on the chain so far (both gateways), in chain order. */
async function tradesOnChain(): Promise<TradeEvent[]> {
  const c = await chain()
  const head = await c.client.getBlockNumber({ cacheTime: 0 })
  return (await readMarketEvents(c.client, stack.deployment!.markets!, 0n, head)).trades
}

/** The market as the chain has it now. */
async function fresh(m: MarketSnapshot): Promise<MarketSnapshot> {
  return (await marketsFromNode(await chain(), stack.deployment!)).find((x) => x.address === m.address)!
}

test('buys in two markets show in the portfolio at exactly the maths’ value, with cost and P&L', async () => {
  const markets = await marketsFromNode(await chain(), stack.deployment!)
  ;[winner, other] = [markets[0]!, markets[1]!]
  await tab.goto(`${stack.url}#/markets/${winner.address}`)
  await buy(tab, 0, '10')
  await tab.goto(`${stack.url}#/markets/${other.address}`)
  await buy(tab, 1, '5')

  await marketsLink(tab, 'Portfolio').click()
  await expect(tab.getByTestId('portfolio-entry')).toHaveCount(2)
  const mine = (await tradesOnChain()).filter((t) => t.trader === burner)
  expect(mine.map((t) => t.market)).toEqual([winner.address, other.address])
  let totalValue = 0n
  let totalCost = 0n
  for (const [m, outcome, trade] of [
    [winner, 0, mine[0]!],
    [other, 1, mine[1]!],
  ] as const) {
    const now = await fresh(m)
    const shares = (await sharesOnChain(await chain(), now, burner))[outcome]!
    const value = sellMaths(mathsMarket(now), outcome, shares).tokens
    // the maths' figure is the gateway's own quote for selling them all
    const gateway = await (
      await chain()
    ).client.readContract({
      address: now.gateway,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'quoteSellExactIn',
      args: [now.address, BigInt(outcome), shares],
    })
    expect(gateway).toBe(value)
    const e = entry(m)
    await expect(e).toHaveAttribute('data-value', value.toString())
    await expect(e).toHaveAttribute('data-cost', trade.tokens.toString())
    await expect(e).toHaveAttribute('data-pnl', (value - trade.tokens).toString())
    // only the held outcome is listed
    const holding = e.getByTestId('portfolio-holding')
    await expect(holding).toHaveCount(1)
    await expect(holding).toHaveAttribute('data-outcome', String(outcome))
    await expect(holding).toHaveAttribute('data-shares', shares.toString())
    // bought and valued at a sell: the fee on both sides makes it a loss
    await expect(e.getByTestId('portfolio-entry-pnl')).toHaveText(/^-[\d.]+ tUSD \(−\d+\.\d\d %\)$/)
    totalValue += value
    totalCost += trade.tokens
  }
  await expect(tab.getByTestId('portfolio-total-value')).toHaveAttribute('data-units', totalValue.toString())
  await expect(tab.getByTestId('portfolio-total-cost')).toHaveAttribute('data-units', totalCost.toString())
  await expect(tab.getByTestId('portfolio-total-pnl')).toHaveAttribute(
    'data-units',
    (totalValue - totalCost).toString(),
  )
  await expect(tab.getByTestId('portfolio-redeem-all')).toBeDisabled()
  await shot('portfolio-open')
})

test('the chart has a point per trade from creation on; the edge view quotes the move to your probability', async () => {
  await tab.goto(`${stack.url}#/markets/${winner.address}`)
  const trades = (await tradesOnChain()).filter((t) => t.market === winner.address)
  expect(trades.length).toBe(2) // the seeder's buy and ours
  const chart = tab.getByTestId('probability-chart')
  await expect(chart).toHaveAttribute('data-points', String(trades.length + 1))
  await expect(chart).toHaveAttribute('data-complete', 'true')
  await expect(chart.getByTestId('chart-point')).toHaveCount(trades.length + 1)
  await expect(chart.getByTestId('chart-legend')).toContainText('Yes')

  const now = await fresh(winner)
  const edge = tab.getByTestId('edge-row')
  await tab.getByLabel('Your probability of No, in percent').fill('70')
  // "No" typed as 70 %: the blank "Yes" takes the other 30 %, below its odds, and we hold 10 Yes
  const yours = completeBeliefs(now.probabilities, [null, (70n * WAD) / 100n])
  const rows = edgeRows(now, yours, [10n * WAD, 0n])
  expect(rows.map((r) => r.move?.side)).toEqual(['sell', 'buy'])
  for (const [i, r] of rows.entries()) {
    await expect(edge.nth(i)).toHaveAttribute('data-move-side', r.move!.side)
    await expect(edge.nth(i)).toHaveAttribute('data-move-shares', r.move!.shares.toString())
    await expect(edge.nth(i)).toHaveAttribute('data-move-tokens', r.move!.tokens.toString())
  }
  await chart.scrollIntoViewIfNeeded()
  await shot('market-chart-and-edge')
})

test('after the oracle settles one market, the batch redeem pays exactly the amount shown', async () => {
  const c = await chain()
  await advanceChainTime(c.rpcUrl, CLOCK_JUMP_S)
  await settleAsOracle(c, winner, 0)
  const redeem = await gatewayExitQuote(c, winner, burner, { redeem: true })
  const liquidate = await gatewayExitQuote(c, other, burner, { liquidate: [1] })
  await marketsLink(tab, 'Portfolio').click()
  await expect(entry(winner)).toHaveAttribute('data-action', 'redeem')
  await expect(entry(winner)).toHaveAttribute('data-value', redeem.toString())
  await expect(entry(other)).toHaveAttribute('data-action', 'liquidate')
  await expect(entry(other)).toHaveAttribute('data-value', liquidate.toString())
  await expect(entry(other).getByTestId('portfolio-exit')).toHaveAttribute('data-units', liquidate.toString())
  const all = tab.getByTestId('portfolio-redeem-all')
  await expect(all).toHaveAttribute('data-count', '1')
  await expect(all).toHaveAttribute('data-units', redeem.toString())
  await shot('portfolio-settled')

  const before = await collateralOnChain(c, stack.deployment!, burner)
  await all.click()
  await confirmDialog(tab, /^Redeem for /)
  const result = tab.locator(`[data-testid="redeem-result"][data-address="${winner.address}"]`)
  await expect(result).toHaveAttribute('data-ok', 'true')
  await expect(result).toHaveAttribute('data-units', redeem.toString())
  expect((await collateralOnChain(c, stack.deployment!, burner)) - before).toBe(redeem)
  // the redeemed market leaves the portfolio (no shares left); the other stays
  await expect(entry(winner)).toHaveCount(0)
  await expect(entry(other)).toHaveCount(1)
  await shot('portfolio-redeemed')
})

test('a market created through the form appears in the list', async () => {
  await marketsLink(tab, 'Create a market').click()
  const form = tab.getByTestId('create-market')
  await tab.getByRole('button', { name: 'Create market' }).click()
  await expect(tab.getByTestId('create-error-question')).toHaveText('Write the question the market answers.')
  await expect(tab.getByTestId('create-problem')).toBeVisible()
  await tab.getByRole('textbox', { name: /^Trading fee \(%\)/ }).fill('9')
  await expect(tab.getByTestId('create-error-fee')).toHaveText(
    'The trading fee must be between 0.5 % and 5 %.',
  )
  await shot('create-errors')

  const question = 'Will the portfolio spec pass on the first run?'
  await tab.getByRole('textbox', { name: /^Question/ }).fill(question)
  await tab.getByRole('button', { name: 'Add an outcome' }).click()
  await form.getByRole('textbox', { name: 'Outcome 3', exact: true }).fill('Flaky')
  await tab.getByRole('textbox', { name: /^Trading fee \(%\)/ }).fill('1.5')
  await tab.getByRole('textbox', { name: /^Initial deposit/ }).fill('200')
  await tab.getByTestId('create-tradingFor').fill('3')
  await expect(form.locator('.inline-error')).toHaveCount(0)
  await tab.getByRole('button', { name: 'Create market' }).click()
  await confirmDialog(tab, /^Allow the market factory to take 200 tUSD$/)
  await confirmDialog(tab, /^Create “Will the portfolio spec pass on the first run\?”$/)
  await expect(tab.getByTestId('create-status')).toHaveAttribute('data-phase', 'confirmed')
  const created = (await tab.getByTestId('create-done').getAttribute('data-address')) as Address
  await shot('create-done')

  const onChain = (await marketsFromNode(await chain(), stack.deployment!)).find(
    (m) => m.address === created,
  )!
  expect(onChain.metadata).toEqual({
    question,
    outcomes: ['Yes', 'No', 'Flaky'],
    category: 'miscellaneous',
    resolutionCriteria: '',
  })
  expect(onChain.kind).toBe('dpm')
  expect(onChain.tradingFee).toBe(15n * 10n ** 15n)
  expect(onChain.status).toBe(0)
  await marketsLink(tab, 'Markets').click()
  const card = tab.locator(`[data-testid="market-card"][data-address="${created}"]`)
  await expect(card).toContainText(question)
  await expect(card).toContainText('Open')
  await shot('list-with-created')
})
