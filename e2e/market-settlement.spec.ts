// Leaving ended markets from the tab: the burner buys shares of two demo markets, the chain's clock
// moves past both trading deadlines and the oracle settles one from Node; the settled market offers
// Redeem and the one left unsettled past its settlement deadline offers Liquidate, each for exactly what
// the gateway pays, and the tUSD balance on the chain rises by exactly that amount.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test, type Page } from '@playwright/test'
import type { Address } from 'viem'
import type { Stack } from '../src/node/cli/stack.ts'
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

const DAY = 86_400
/** past the 30-day market's trading deadline, and past the 14-day one's settlement deadline (+½ day) */
const CLOCK_JUMP_S = 30 * DAY + 3_600

let setup: MarketTab | undefined
let stack: Stack
let tab: Page
let burner: Address
/** demo market 0 (DPM, 30 days, Yes / No): bought, then settled "Yes" */
let settled: MarketSnapshot
/** demo market 1 (DPM, 14 days): bought, never settled */
let expired: MarketSnapshot

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  setup = await startMarketTab('settlement', 19710)
  ;({ stack, tab, burner } = setup)
})

test.afterAll(() => setup?.stop())

const chain = () => chainFromNode(stack)
const shot = (name: string) => tab.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true })
const openMarket = (m: MarketSnapshot) => tab.goto(`${stack.url}#/markets/${m.address}`)
const exitButton = () => tab.getByTestId('exit-submit')

/** Clicks the exit button, confirms, and checks the chain paid exactly `expected`. */
async function exitFor(expected: bigint, title: RegExp): Promise<void> {
  const c = await chain()
  const before = await collateralOnChain(c, stack.deployment!, burner)
  await exitButton().click()
  await expect(tab.getByRole('dialog')).toContainText('You receive')
  await confirmDialog(tab, title)
  await expect(tab.getByTestId('exit-status')).toHaveAttribute('data-phase', 'confirmed')
  await expect(tab.getByTestId('exit-received')).toHaveAttribute('data-units', expected.toString())
  const after = await collateralOnChain(c, stack.deployment!, burner)
  expect(after - before).toBe(expected)
  await expect(tab.getByTestId('position-balance')).toHaveAttribute('data-units', after.toString())
}

test('the burner buys shares of two demo markets; an open market offers no exit', async () => {
  const markets = await marketsFromNode(await chain(), stack.deployment!)
  ;[settled, expired] = [markets[0]!, markets[1]!]
  await openMarket(settled)
  await buy(tab, 0, '10')
  await expect(tab.getByTestId('position-row').first()).toHaveAttribute(
    'data-shares',
    String(10n * 10n ** 18n),
  )
  await expect(exitButton()).toHaveCount(0)
  await openMarket(expired)
  // two buys back to back: the second re-reads the allowance the first one used up
  await buy(tab, 1, '5')
  await buy(tab, 2, '3')
  expect(await sharesOnChain(await chain(), expired, burner)).toEqual([
    0n,
    5n * 10n ** 18n,
    3n * 10n ** 18n,
    0n,
  ])
})

test('after the oracle settles, Redeem shows and pays exactly the gateway’s payout', async () => {
  const c = await chain()
  await advanceChainTime(c.rpcUrl, CLOCK_JUMP_S)
  await settleAsOracle(c, settled, 0)
  const expected = await gatewayExitQuote(c, settled, burner, { redeem: true })
  expect(expected).toBeGreaterThan(0n)
  await openMarket(settled)
  await expect(tab.getByTestId('market-status')).toHaveAttribute('data-status', '2')
  await expect(exitButton()).toHaveAttribute('data-action', 'redeem')
  await expect(exitButton()).toHaveAttribute('data-units', expected.toString())
  await expect(exitButton()).toBeEnabled()
  await shot('redeem-offered')
  await exitFor(expected, /^Redeem for /)
  await expect(tab.getByTestId('exit-problem')).toHaveText(
    'You hold no winning shares of this market to redeem.',
  )
  await expect(exitButton()).toBeDisabled()
  expect(await sharesOnChain(c, settled, burner)).toEqual([0n, 0n])
  await shot('redeemed')
})

test('an unsettled market past its settlement deadline liquidates for exactly its frozen value', async () => {
  const c = await chain()
  const expected = await gatewayExitQuote(c, expired, burner, { liquidate: [1, 2] })
  expect(expected).toBeGreaterThan(0n)
  await openMarket(expired)
  await expect(tab.getByTestId('market-status')).toHaveAttribute('data-status', '3')
  await expect(exitButton()).toHaveAttribute('data-action', 'liquidate')
  await expect(exitButton()).toHaveAttribute('data-units', expected.toString())
  await shot('liquidate-offered')
  await exitFor(expected, /^Liquidate for /)
  await expect(tab.getByTestId('exit-problem')).toHaveText(
    'You hold no shares of this market: nothing to liquidate.',
  )
  await expect(exitButton()).toBeDisabled()
  await shot('liquidated')
})
