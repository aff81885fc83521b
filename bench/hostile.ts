// Hostile load (issue 20): three tabs learning on the micro model, and a Node attacker that floods them
// with every class of the round attack (e2e/round-attack.ts: issue 20's items 1–8) from fresh identities,
// --per-class messages of each over --rounds rounds. Reports rounds completed against rounds expected,
// attacker groups trained on (must be 0, read from the tabs' own grpo-step receipts), the tabs' refusals by
// reason (Network card and round refusals), main-thread JS heap after GC before and after, and CPU per
// 1,000 messages: the Chromium processes' CPU over the flood minus the same span of quiet rounds before
// it, and each tab's main thread (where every message is received, verified and validated) likewise.
// The one class the tabs charge to whoever hands it over (a `1e999` body: malformed) goes last, in the
// last round: after BLOCK_AFTER_REJECTS of them every tab hangs up on the attacker, which is the defence
// (`made → delivered` shows where it stopped).
// Bounded: it stops by itself after the flood's rounds and two more.
//   node --import ./src/polyfills/register.js bench/hostile.ts [--per-class 10000] [--rounds 10]
import '../src/polyfills/promise-with-resolvers.ts'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { CDPSession, Page } from '@playwright/test'
import { buildWhenStale } from '../src/node/cli/app-build.ts'
import { startStack } from '../src/node/cli/stack.ts'
import { rolloutGroupHash } from '../src/core/learning/group-hash.ts'
import { attackableTabs, attackOn, ATTACK_LEARNING, ATTACK_ROUND_MS } from '../e2e/attack-tabs.ts'
import { launchBrowser } from '../e2e/browser.ts'
import { spawnHostilePeer } from '../e2e/hostile-peer.ts'
import { fullRound, playwrightTab, receiptsOf, roundsOf, until } from '../e2e/learning-tabs.ts'
import { ROUND_ATTACK_CLASSES } from '../e2e/round-attack.ts'
import { fmt, positiveInt, printTable, writeResults, type Row } from './stats.ts'

const ROUND_MS = ATTACK_ROUND_MS
const PORTS = { relayPort: 18310, relayHttpPort: 18311, appPort: 18312 }
const HOSTILE_PORT = 18313
const learning = ATTACK_LEARNING
const resultsFile = fileURLToPath(new URL('./results/hostile.json', import.meta.url))

/** CPU seconds (user + system) of every Chromium process on this machine: the bench's browser alone. */
function chromiumCpuSeconds(): number {
  const tick = 100 // USER_HZ on Linux
  let total = 0
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      if (!/chrom/i.test(name)) continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      total += (Number(fields[11]) + Number(fields[12])) / tick
    } catch {
      // the process ended while we read
    }
  }
  return total
}

/** A tab's main thread: busy seconds so far, and its JS heap after a full GC. */
async function mainThread(cdp: CDPSession): Promise<{ taskSeconds: number; heapBytes: number }> {
  await cdp.send('HeapProfiler.collectGarbage')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN
  return { taskSeconds: metric('TaskDuration'), heapBytes: metric('JSHeapUsedSize') }
}

/** The Network card's refusals by reason. */
async function networkRefusals(page: Page): Promise<Record<string, number>> {
  await page.evaluate(`location.hash = '#/swarm'`)
  await page.getByTestId('net-stats').waitFor()
  const cells = await page
    .getByTestId('rejected-reasons')
    .locator('[data-testid^="rejected-"]')
    .evaluateAll((els) =>
      els.map((e) => [
        e.getAttribute('data-testid')!.slice('rejected-'.length),
        Number(e.getAttribute('data-value')),
      ]),
    )
  await page.evaluate(`location.hash = '#/train'`)
  return Object.fromEntries(cells) as Record<string, number>
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'per-class': { type: 'string', default: '10000' },
      rounds: { type: 'string', default: '10' },
    },
  })
  const perClass = positiveInt(values['per-class'], 'per-class')
  const rounds = positiveInt(values.rounds, 'rounds')
  // the app as npm start serves it: built first when dist/ is missing or older than its sources
  await buildWhenStale(fileURLToPath(new URL('../', import.meta.url)), 'dist')
  const stack = await startStack({ ...PORTS, config: { roundLengthMs: ROUND_MS, learning } })
  const browser = await launchBrowser()
  const attacker = await spawnHostilePeer({
    relayAddr: stack.config.relays[0]!,
    port: HOSTILE_PORT,
    swarmId: stack.swarmId,
  })
  try {
    const pages = await Promise.all(
      [0, 1, 2].map(async () => {
        const page = await (await browser.newContext()).newPage()
        await page.goto(`${stack.url}?debug#/train`)
        return page
      }),
    )
    const tabs = pages.map((page, i) => playwrightTab(`tab ${i}`, page))
    const cdps = await Promise.all(pages.map((p) => p.context().newCDPSession(p)))
    await Promise.all(cdps.map((c) => c.send('Performance.enable')))
    const ids = await attackableTabs(tabs, attacker)
    // The baseline: as many quiet rounds as the flood will take, on the same tabs.
    console.log(`quiet: ${rounds} rounds of ${ROUND_MS / 1000} s…`)
    const quietStart = { cpu: chromiumCpuSeconds(), tabs: await Promise.all(cdps.map(mainThread)) }
    const quietT0 = Date.now()
    await new Promise((r) => setTimeout(r, rounds * ROUND_MS))
    const floodStart = { cpu: chromiumCpuSeconds(), tabs: await Promise.all(cdps.map(mainThread)) }
    const quietSeconds = (Date.now() - quietT0) / 1000

    console.log(`flood: ${perClass} messages per class over ${rounds} rounds…`)
    const floodT0 = Date.now()
    const report = await attacker.flood({ ...attackOn(stack.config.genesisTime, rounds, ids), perClass })
    // the last flooded round and the one that judges its lookahead
    const checked = [...report.rounds, report.rounds.at(-1)! + 1]
    const all = await until(
      () => Promise.all(tabs.map(roundsOf)),
      (rows) => rows.every((r) => checked.every((round) => r.some((x) => x.round === round))),
      6 * ROUND_MS,
    ).catch(() => Promise.all(tabs.map(roundsOf)))
    const floodSeconds = (Date.now() - floodT0) / 1000
    const floodEnd = { cpu: chromiumCpuSeconds(), tabs: await Promise.all(cdps.map(mainThread)) }

    const attackers = new Set(report.identities)
    const sent = new Set(report.groups.map((g) => rolloutGroupHash(g.group)))
    const perTab = await Promise.all(
      tabs.map(async (tab, i) => {
        const rows = all[i]!.filter((r) => checked.includes(r.round))
        const trained = (await receiptsOf(tab)).flatMap((r) => r.trainedGroups ?? [])
        const quiet = floodStart.tabs[i]!.taskSeconds - quietStart.tabs[i]!.taskSeconds
        const busy = floodEnd.tabs[i]!.taskSeconds - floodStart.tabs[i]!.taskSeconds
        return {
          tab: i,
          roundsExpected: checked.length,
          roundsCompleted: rows.filter(fullRound).length,
          roundsSkipped: rows.filter((r) => r.skipped !== '').map((r) => `${r.round}: ${r.skipped}`),
          groupsRefused: rows.reduce((a, r) => a + r.refused, 0),
          groupsIgnored: rows.reduce((a, r) => a + r.ignored, 0),
          attackerGroupsTrained: trained.filter((g) => attackers.has(g.from) || sent.has(g.hash)).length,
          groupsTrained: trained.length,
          networkRefusals: await networkRefusals(pages[i]!),
          heapBytes: { before: floodStart.tabs[i]!.heapBytes, after: floodEnd.tabs[i]!.heapBytes },
          mainThreadSeconds: { quiet, flood: busy, extra: busy - (quiet * floodSeconds) / quietSeconds },
        }
      }),
    )
    const messages = Object.values(report.messages).reduce((a, b) => a + b, 0)
    const cpuQuiet = floodStart.cpu - quietStart.cpu
    const cpuFlood = floodEnd.cpu - floodStart.cpu
    const cpuExtra = cpuFlood - (cpuQuiet * floodSeconds) / quietSeconds
    const summary = {
      bench: 'hostile',
      perClass,
      rounds,
      roundLengthMs: ROUND_MS,
      attempted: report.attempted,
      messages: report.messages,
      deliveries: report.deliveries,
      identities: report.identities.length,
      groupsSent: report.groups.length,
      chromiumCpuSeconds: { quiet: cpuQuiet, quietSeconds, flood: cpuFlood, floodSeconds, extra: cpuExtra },
      cpuMsPer1000Deliveries: (1000 * cpuExtra) / (report.deliveries / 1000),
      tabs: perTab,
    }
    await writeResults(resultsFile, summary)
    const mib = (b: number) => fmt(b / 2 ** 20, 1)
    const rows: Row[] = [
      ...ROUND_ATTACK_CLASSES.map((cls) => ({
        metric: `${cls}: messages made → delivered to ≥ 1 tab`,
        value: `${report.attempted[cls]} → ${report.messages[cls]}`,
        baseline: '',
        ratio: '',
      })),
      ...perTab.map((t) => ({
        metric: `tab ${t.tab}: rounds completed / expected; attacker groups trained; refused, ignored`,
        value: `${t.roundsCompleted} / ${t.roundsExpected}; ${t.attackerGroupsTrained} of ${t.groupsTrained}`,
        baseline: `${t.groupsRefused} refused, ${t.groupsIgnored} ignored`,
        ratio: `heap ${mib(t.heapBytes.before)} → ${mib(t.heapBytes.after)} MiB; main thread +${fmt(t.mainThreadSeconds.extra, 1)} s`,
      })),
      {
        metric: 'CPU per 1,000 deliveries (all Chromium processes, flood minus quiet)',
        value: `${fmt(summary.cpuMsPer1000Deliveries, 0)} ms`,
        baseline: `quiet ${fmt(cpuQuiet, 1)} s in ${fmt(quietSeconds, 0)} s`,
        ratio: `flood ${fmt(cpuFlood, 1)} s in ${fmt(floodSeconds, 0)} s, ${messages} messages, ${report.deliveries} deliveries`,
      },
    ]
    printTable(`hostile flood: ${perClass} messages per class over ${rounds} rounds, 3 tabs`, rows)
  } finally {
    await attacker.stop()
    await browser.close()
    await stack.stop()
  }
}

await main()
