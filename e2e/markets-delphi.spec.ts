// The Markets view on Delphi's networks, offline: anvil as Delphi's testnet (chain 685685) with our DPM
// gateway at the testnet's automated-settlement addresses and our LMSR gateway at the competition's
// (delphi-test-chain.ts), and a local server answering Delphi's REST and subgraph shapes from that
// chain (delphi-test-server.ts). The tab is pointed at them the way a user would: the chain's RPC URL
// in the wallet settings, the API key and the REST/subgraph URLs in Settings → Delphi. Then the same
// views list each network's markets, open one on each gateway, quote what the gateway quotes, buy
// through it and show the trade in the history from the subgraph (with the staleness warning when
// the subgraph trails) and in the portfolio's cost basis; verifiable markets show their badge and
// settlement proof (a link, a receipt download, or text); a wrong key and a dead server each show
// their own state, and the local chain keeps working.
import '../src/polyfills/promise-with-resolvers.ts'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import type { Address } from 'viem'
import { dynamicParimutuelGatewayAbi } from '../src/host/chain/generated/DynamicParimutuelGateway.ts'
import { lmsrGatewayAbi } from '../src/host/chain/generated/LmsrGateway.ts'
import { listMarkets } from '../src/host/chain/markets/market-reads.ts'
import { startDelphiTestChain, type DelphiTestChain } from '../src/node/cli/markets/delphi-test-chain.ts'
import {
  standInReeReceipt,
  startDelphiTestServer,
  type DelphiTestServer,
} from '../src/node/cli/markets/delphi-test-server.ts'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import type { DelphiNetworkName } from '../src/host/delphi/networks.ts'
import type { MarketRef } from '../src/core/markets/market-snapshot.ts'
import { marketSourceLabel } from '../src/host/markets/market-source.ts'
import { launchBrowser } from './browser.ts'
import { buy, outcomeRows, tradeHashes } from './market-actions.ts'
import { marketsLink, openSettings, viewLink } from './tab-actions.ts'
import { burnerReady } from './wallet-actions.ts'

// Fixed ports for this file only (19760–19769).
const DELPHI_ANVIL_PORT = 19760
const DELPHI_SERVER_PORT = 19761
const RELAY_PORT = 19762
const RELAY_HTTP_PORT = 19763
const APP_PORT = 19764
const LOCAL_ANVIL_PORT = 19765
const API_KEY = 'stand-in-key'
const WAD = 10n ** 18n
/** Delphi's networks are polled like any remote chain (every 4 s): a state change shows within two polls. */
const REMOTE_TIMEOUT = 10_000
const PROOF_URL = 'https://proofs.example/settlement/receipt.json'
const UNSAFE_PROOF = 'javascript:alert(document.cookie)'

let tmp: string
let delphi: DelphiTestChain
let server: DelphiTestServer
let stack: Stack
let browser: Browser
let page: Page
let burner: Address
/** the stand-in's markets as the factories list them: three DPM, one LMSR */
let refs: MarketRef[]

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tabswarm-markets-delphi-'))
  delphi = await startDelphiTestChain(DELPHI_ANVIL_PORT, 0n)
  server = await startDelphiTestServer({
    port: DELPHI_SERVER_PORT,
    client: delphi.client,
    markets: delphi.markets,
    token: delphi.token,
    apiKey: API_KEY,
  })
  refs = await listMarkets(delphi.client, delphi.markets, await delphi.client.getBlockNumber())
  // three DPM markets' settlements: verifiable with a proof URL; a receipt document; a scheme a click
  // would run (the list shows the first two as verifiable)
  const [linked, receipt, unsafe] = refs.filter((r) => r.kind === 'dpm').map((r) => r.address.toLowerCase())
  server.settlements = {
    [linked!]: { verifiable: true, proof: PROOF_URL },
    [receipt!]: { verifiable: true, proof: standInReeReceipt('Yes') },
    [unsafe!]: { verifiable: false, proof: UNSAFE_PROOF },
  }
  stack = await startStack({
    relayPort: RELAY_PORT,
    relayHttpPort: RELAY_HTTP_PORT,
    appPort: APP_PORT,
    // TABSWARM_DIST: a build of one's own, when others share the checkout's dist/
    dist: process.env.TABSWARM_DIST,
    chain: { port: LOCAL_ANVIL_PORT, stateFile: join(tmp, 'anvil-state.json') },
  })
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
  await page.goto(`${stack.url}#/wallet`)
  burner = await burnerReady(page)
  await delphi.fund(burner, 1_000n)

  // the wallet settings: Delphi's testnet chain is the stand-in anvil
  const rpc = form('Gensyn Testnet RPC')
  await rpc.getByRole('textbox').fill(delphi.anvil.rpcUrl)
  await rpc.getByRole('button', { name: 'Save' }).click()
  await expect(rpc.getByRole('button')).toBeDisabled()
  // Settings → Delphi: the key, and the stand-in's REST and subgraph URLs for both networks on 685685
  await openSettings(page)
  await setApiKey(API_KEY)
  for (const name of ['testnet', 'competition-testnet'] as const) {
    const urls = form(`${marketSourceLabel(name)} URLs`)
    await urls.getByLabel(/REST API$/).fill(server.restUrl)
    await urls.getByLabel('subgraph').fill(server.subgraphUrl)
    await urls.getByRole('button', { name: 'Save' }).click()
    await expect(urls.getByRole('button')).toBeDisabled()
  }
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  await server?.close()
  await delphi?.anvil.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

/** a settings form by its name (each has its own Save) */
const form = (name: string) => page.getByRole('form', { name, exact: true })

const shot = (name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true })

async function setApiKey(key: string): Promise<void> {
  const apiKey = form('Delphi API key')
  await apiKey.getByLabel(/^API key/).fill(key)
  await apiKey.getByRole('button').click()
  await expect(apiKey.getByRole('button')).toBeDisabled()
}

/** Opens the Markets view's list on `network`. */
async function openMarkets(network: DelphiNetworkName | 'local'): Promise<void> {
  await viewLink(page, 'Markets').click()
  await marketsLink(page, 'Markets').click()
  await page.getByLabel('Markets network').selectOption(network)
}

/** Opens a market's page the way a link to it does. */
const openMarket = (address: Address) => page.evaluate((a) => (location.hash = `#/markets/${a}`), address)

const cardAddresses = () =>
  page.getByTestId('market-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-address')))

/** What the gateway itself quotes for buying `shares` whole shares of `outcome`. */
async function gatewayQuote(m: MarketRef, outcome: number, shares: bigint): Promise<bigint> {
  const args = [m.address, BigInt(outcome), shares * WAD] as const
  if (m.kind === 'dpm')
    return delphi.client.readContract({
      address: m.gateway,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'quoteBuyExactOut',
      args,
    })
  const [tokensIn] = await delphi.client.readContract({
    address: m.gateway,
    abi: lmsrGatewayAbi,
    functionName: 'quoteBuyExactOut',
    args,
  })
  return tokensIn
}

test('each network lists the stand-in’s markets its gateways serve; the local chain still lists its own', async () => {
  const dpm = refs.filter((r) => r.kind === 'dpm').map((r) => r.address)
  const lmsr = refs.filter((r) => r.kind === 'lmsr').map((r) => r.address)
  expect([dpm.length, lmsr.length]).toEqual([3, 1])

  await openMarkets('testnet')
  await expect
    .poll(async () => (await cardAddresses()).sort(), { timeout: REMOTE_TIMEOUT })
    .toEqual(dpm.sort())
  await expect(marketsLink(page, 'Create a market')).toHaveCount(0)
  await shot('delphi-testnet-list')

  await page.getByLabel('Markets network').selectOption('competition-testnet')
  await expect.poll(cardAddresses, { timeout: REMOTE_TIMEOUT }).toEqual(lmsr)
  await expect(page.getByTestId('market-card')).toContainText('LMSR')

  await page.getByLabel('Markets network').selectOption('local')
  await expect(page.getByTestId('market-card')).toHaveCount(4)
  await expect(marketsLink(page, 'Create a market')).toBeVisible()
  const local = await cardAddresses()
  expect(local.some((a) => refs.some((r) => r.address === a))).toBe(false)
})

test('verifiable markets show their badge, and each proof as a link, a receipt download or text', async () => {
  const [linked, receipt, unsafe] = refs.filter((r) => r.kind === 'dpm').map((r) => r.address)
  await openMarkets('testnet')
  const card = (a: Address) => page.locator(`[data-testid="market-card"][data-address="${a}"]`)
  await expect(card(linked!).getByTestId('market-verifiable')).toBeVisible({ timeout: REMOTE_TIMEOUT })
  await expect(card(receipt!).getByTestId('market-verifiable')).toBeVisible()
  await expect(card(unsafe!).getByTestId('market-verifiable')).toHaveCount(0)
  await expect(card(linked!).getByTestId('market-verifiable')).toHaveAttribute('title', /anyone can re-run/)

  await card(linked!).click()
  await expect(page.getByTestId('market-page')).toHaveAttribute('data-address', linked!)
  await expect(page.getByTestId('market-header').getByTestId('market-verifiable')).toHaveText('Verifiable')
  const link = page.getByRole('link', { name: 'Settlement proof' })
  await expect(link).toHaveAttribute('href', PROOF_URL)
  await expect(link).toHaveAttribute('rel', /noopener/)
  await shot('delphi-proof-link')

  await openMarket(receipt!)
  const download = page.getByRole('button', { name: 'Settlement proof' })
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()])
  expect(file.suggestedFilename()).toBe(`${receipt}.settlement-proof.json`)
  const saved = await file.path()
  expect(JSON.parse(readFileSync(saved, 'utf8'))).toMatchObject({ text_output: 'Yes' })
  await expect(page.getByRole('link', { name: 'Settlement proof' })).toHaveCount(0)
  await shot('delphi-proof-receipt')

  await openMarket(unsafe!)
  await expect(page.getByTestId('market-proof-text')).toHaveText(UNSAFE_PROOF)
  await expect(page.getByTestId('market-proof').locator('a')).toHaveCount(0)
  await expect(page.getByTestId('market-header').getByTestId('market-verifiable')).toHaveCount(0)
})

for (const [network, kind] of [
  ['testnet', 'dpm'],
  ['competition-testnet', 'lmsr'],
] as const) {
  test(`a ${kind} market on ${network}: the quote is its gateway’s, a buy goes through it and shows in the history`, async () => {
    const m = refs.find((r) => r.kind === kind)!
    await openMarkets(network)
    await page.locator(`[data-testid="market-card"][data-address="${m.address}"]`).click()
    await expect(page.getByTestId('market-page')).toHaveAttribute('data-address', m.address)
    await expect(page.getByTestId('outcome-row')).toHaveCount(2)

    await page.getByLabel(/^Shares to (buy|sell)$/).fill('10')
    await expect(page.getByTestId('trade-quote')).toHaveAttribute('data-ok', 'true')
    const quoted = BigInt((await page.getByTestId('quote-tokens').getAttribute('data-units'))!)
    expect(quoted).toBe(await gatewayQuote(m, 0, 10n))

    const before = await delphi.balance(burner)
    const hash = await buy(page, 0, '10')
    // the wallet switched to Delphi's chain for the trade, and paid exactly the quote there
    expect(await delphi.balance(burner)).toBe(before - quoted)
    await expect
      .poll(async () => (await outcomeRows(page))[0]!.shares, { timeout: REMOTE_TIMEOUT })
      .toBe(10n * WAD)
    // the history (from the subgraph) shows the trade, as this wallet's
    await expect.poll(() => tradeHashes(page), { timeout: REMOTE_TIMEOUT }).toContain(hash)
    await expect(page.locator(`[data-testid="trade-row"][data-hash="${hash}"]`)).toContainText('you')
    await expect(page.getByTestId('markets-history-warning')).toHaveCount(0)
    await shot(`delphi-${kind}-after-buy`)
    // the portfolio lists the position, its cost basis from the subgraph's history of this wallet's buy
    await marketsLink(page, 'Portfolio').click()
    const entry = page.locator(`[data-testid="portfolio-entry"][data-address="${m.address}"]`)
    await expect(entry).toHaveAttribute('data-cost', String(quoted), { timeout: REMOTE_TIMEOUT })
    await shot(`delphi-${kind}-portfolio`)
  })
}

test('a subgraph trailing the chain shows the staleness warning', async () => {
  const lmsr = refs.find((r) => r.kind === 'lmsr')!.address
  await page.locator(`[data-testid="portfolio-entry"][data-address="${lmsr}"] h2 a`).click()
  await expect(page.getByTestId('market-page')).toHaveAttribute('data-address', lmsr)
  server.lag = 250n
  await delphi.mine(300)
  const warning = page.getByTestId('markets-history-warning')
  await expect(warning).toContainText('250 blocks behind the chain', { timeout: REMOTE_TIMEOUT })
  await shot('delphi-stale-subgraph')
  server.lag = 0n
  await delphi.mine(1)
  await expect(warning).toHaveCount(0, { timeout: REMOTE_TIMEOUT })
})

test('a refused API key and an unreachable server each show their own state, never a blank view', async () => {
  await openSettings(page)
  await setApiKey('wrong-key')
  await shot('delphi-settings')
  await openMarkets('testnet')
  await expect(page.getByTestId('markets-error-title')).toHaveText(/^API key refused/, {
    timeout: REMOTE_TIMEOUT,
  })
  await expect(page.getByTestId('markets-error')).toContainText(
    'refused the API key (HTTP 401): it is missing, wrong, or for another network; enter your Delphi API key in Settings → Delphi.',
  )
  await expect(page.getByTestId('markets-list')).toBeVisible()
  await shot('delphi-refused-key')

  await openSettings(page)
  await setApiKey(API_KEY)
  await openMarkets('testnet')
  await expect(page.getByTestId('market-card')).toHaveCount(3, { timeout: REMOTE_TIMEOUT })
  await server.close()
  await delphi.mine(1) // the chain goes on; the next read finds the API gone
  await expect(page.getByTestId('markets-error-title')).toHaveText(/^Delphi’s testnet is offline/, {
    timeout: REMOTE_TIMEOUT,
  })
  await expect(page.getByTestId('markets-error')).toContainText(
    `Delphi’s testnet API at http://127.0.0.1:${DELPHI_SERVER_PORT} cannot be reached`,
  )
  // the last markets read stay on screen
  await expect(page.getByTestId('market-card')).toHaveCount(3)
  await shot('delphi-offline')

  // and the local chain is unaffected
  await page.getByLabel('Markets network').selectOption('local')
  await expect(page.getByTestId('market-card')).toHaveCount(4)
  await expect(page.getByTestId('markets-error')).toHaveCount(0)
})
