// Markets, measured on a local stack with the demo markets (anvil on ANVIL_PORT, relay and app on
// 18231–18233):
// (a) a quote from the local exact maths (quoteTrade on a snapshot) against the gateway's own quote
//     over JSON-RPC (eth_call quoteBuyExactOut), SAMPLES random sizes on a DPM and an LMSR market;
//     every pair must agree to the unit; time per quote for each and the ratio.
// (b) click to confirmed trade in the tab: Playwright drives the real Markets view with its burner,
//     BUYS buys after one warm-up buy (the unlimited approval); timestamps are taken in the page (the
//     click on Buy, the click on the burner's Confirm, the trade status turning "confirmed").
// Writes bench/results/market-quotes.json and prints a table.
//   npm run bench:markets   (builds first; or TABSWARM_DIST=<a build> node --import
//   ./src/polyfills/register.js bench/market-quotes.ts)
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { launchBrowser } from '../e2e/browser.ts'
import { fundedBurner, marketsFromNode } from '../e2e/market-actions.ts'
import { chainFromNode } from '../e2e/wallet-actions.ts'
import { dynamicParimutuelGatewayAbi } from '../src/host/chain/generated/DynamicParimutuelGateway.ts'
import { startStack } from '../src/node/cli/stack.ts'
import type { MarketSnapshot } from '../src/core/markets/market-snapshot.ts'
import { quoteTrade } from '../src/core/markets/trade-quote.ts'
import { fmt, percentile, printTable, type Row } from './stats.ts'

/** Free of the test ports (19xxx), the dev defaults and the other benchmarks. */
const ANVIL_PORT = 18230
const RELAY_PORT = 18231
const RELAY_HTTP_PORT = 18232
const APP_PORT = 18233
/** quotes per market kind, each way */
const SAMPLES = 200
/** measured buys from the tab (after one warm-up buy that approves) */
const BUYS = 24
const WAD = 10n ** 18n

const resultsFile = fileURLToPath(new URL('./results/market-quotes.json', import.meta.url))

/** A deterministic spread of sizes, 0.5 to 100 shares. */
const sizeOf = (i: number): bigint => ((BigInt(i * 7919) % 200n) + 1n) * (WAD / 2n)

interface QuoteTimes {
  localMs: number[]
  rpcMs: number[]
}

async function measureQuotes(
  rpc: Awaited<ReturnType<typeof chainFromNode>>,
  m: MarketSnapshot,
): Promise<QuoteTimes> {
  const times: QuoteTimes = { localMs: [], rpcMs: [] }
  for (let i = 0; i < SAMPLES; i++) {
    const shares = sizeOf(i)
    const outcome = i % m.outcomeCount
    const t0 = performance.now()
    const local = quoteTrade(m, { side: 'buy', outcome, shares, slippageBps: 0 })
    const t1 = performance.now()
    const onChain = await rpc.client.readContract({
      address: m.gateway,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'quoteBuyExactOut',
      args: [m.address, BigInt(outcome), shares],
    })
    const t2 = performance.now()
    if (!local.ok || local.quote.tokens !== onChain)
      throw new Error(`quote mismatch on ${m.kind} ${m.address}, outcome ${outcome}, ${shares} wei-shares`)
    times.localMs.push(t1 - t0)
    times.rpcMs.push(t2 - t1)
  }
  return times
}

/** Records, in the page, when Buy and the burner's Confirm are clicked and when a trade is confirmed. */
async function recordTradeMarks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const marks = { buy: [] as number[], confirm: [] as number[], confirmed: [] as number[] }
    ;(window as unknown as { __marks: typeof marks }).__marks = marks
    document.addEventListener(
      'click',
      (e) => {
        const t = e.target as Element
        if (t.closest('[data-testid="trade-submit"]')) marks.buy.push(performance.now())
        if (t.closest('[data-testid="confirm-ok"]')) marks.confirm.push(performance.now())
      },
      true,
    )
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target as Element
        if (
          el.getAttribute('data-testid') === 'trade-status' &&
          el.getAttribute('data-phase') === 'confirmed'
        )
          marks.confirmed.push(performance.now())
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-phase'] })
  })
}

async function confirm(page: Page, title: RegExp): Promise<void> {
  const dialog = page.getByTestId('confirm-dialog')
  await dialog.locator('h2', { hasText: title }).waitFor()
  await dialog.getByTestId('confirm-ok').click()
}

async function measureClicks(page: Page, url: string, m: MarketSnapshot) {
  await page.goto(`${url}#/markets/${m.address}`)
  await page.getByTestId('trade-unlimited-approval').check()
  await page.getByTestId('trade-amount').fill('1')
  const buyOnce = async (approve: boolean) => {
    await page.locator('[data-testid="trade-submit"]:enabled').click()
    if (approve) await confirm(page, /^Allow/)
    await confirm(page, /^Buy/)
    await page.locator('[data-testid="trade-status"][data-phase="confirmed"]').waitFor()
  }
  await buyOnce(true)
  await recordTradeMarks(page)
  for (let i = 0; i < BUYS; i++) await buyOnce(false)
  const marks = await page.evaluate(
    () =>
      (window as unknown as { __marks: { buy: number[]; confirm: number[]; confirmed: number[] } }).__marks,
  )
  if (marks.buy.length !== BUYS || marks.confirmed.length !== BUYS)
    throw new Error(`recorded ${marks.buy.length} clicks and ${marks.confirmed.length} confirmations`)
  return {
    clickToConfirmedMs: marks.buy.map((t, i) => marks.confirmed[i]! - t),
    confirmToConfirmedMs: marks.confirm.map((t, i) => marks.confirmed[i]! - t),
  }
}

async function main(): Promise<void> {
  const stack = await startStack({
    relayPort: RELAY_PORT,
    relayHttpPort: RELAY_HTTP_PORT,
    appPort: APP_PORT,
    chain: { port: ANVIL_PORT },
    dist: process.env.TABSWARM_DIST,
  })
  const browser = await launchBrowser()
  try {
    const rpc = await chainFromNode(stack)
    const markets = await marketsFromNode(rpc, stack.deployment!)
    const dpmMarket = markets.find((m) => m.kind === 'dpm')!
    const lmsrMarket = markets.find((m) => m.kind === 'lmsr')!
    const quotes = { dpm: await measureQuotes(rpc, dpmMarket), lmsr: await measureQuotes(rpc, lmsrMarket) }

    const page = await (await browser.newContext()).newPage()
    await fundedBurner(page, stack.url)
    const clicks = await measureClicks(page, stack.url, dpmMarket)

    const rows: Row[] = []
    const results: Record<string, unknown> = {}
    for (const [kind, t] of Object.entries(quotes)) {
      const [local50, local95, rpc50, rpc95] = [
        percentile(t.localMs, 50),
        percentile(t.localMs, 95),
        percentile(t.rpcMs, 50),
        percentile(t.rpcMs, 95),
      ]
      results[`quote ${kind}`] = {
        samples: SAMPLES,
        localP50Ms: local50,
        localP95Ms: local95,
        rpcP50Ms: rpc50,
        rpcP95Ms: rpc95,
        ratioP50: rpc50 / local50,
        equal: true,
      }
      rows.push({
        metric: `${kind.toUpperCase()} quote, ms p50 / p95: eth_call vs local maths`,
        value: `${fmt(rpc50, 3)} / ${fmt(rpc95, 3)}`,
        baseline: `${fmt(local50, 3)} / ${fmt(local95, 3)}`,
        ratio: fmt(rpc50 / local50, 1),
      })
    }
    const c50 = percentile(clicks.clickToConfirmedMs, 50)
    const c95 = percentile(clicks.clickToConfirmedMs, 95)
    const k50 = percentile(clicks.confirmToConfirmedMs, 50)
    const k95 = percentile(clicks.confirmToConfirmedMs, 95)
    results['click to confirmed trade'] = {
      samples: BUYS,
      p50Ms: c50,
      p95Ms: c95,
      raw: clicks.clickToConfirmedMs,
    }
    results['confirm click to confirmed trade'] = {
      samples: BUYS,
      p50Ms: k50,
      p95Ms: k95,
      raw: clicks.confirmToConfirmedMs,
    }
    rows.push({
      metric: `click Buy → confirmed (burner dialog included), ms p50 / p95`,
      value: `${fmt(c50)} / ${fmt(c95)}`,
      baseline: `${fmt(k50)} / ${fmt(k95)}`,
      ratio: fmt(c50 / k50, 2),
    })
    await mkdir(new URL('./results/', import.meta.url), { recursive: true })
    await writeFile(
      resultsFile,
      JSON.stringify({ date: new Date().toISOString(), samples: SAMPLES, buys: BUYS, results }, null, 2) +
        '\n',
    )
    printTable(
      `Market quotes (${SAMPLES} per kind, every local quote equal to the gateway's) and click-to-confirmed ` +
        `(${BUYS} buys; baseline: from the burner's Confirm click)`,
      rows,
    )
  } finally {
    await browser.close()
    await stack.stop()
  }
}

await main()
