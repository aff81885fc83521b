// Relay + 3 tabs learning on the micro model + a Node attacker that, every round, sends issue 20's
// items 1–8 together on the rollouts topic (round-attack.ts), each class also from a fresh identity of
// its own. Over the attacked rounds every tab completes every round and trains, counts every hostile
// message against its sender by reason (the Network card, the Train leaderboard), hangs up on nobody,
// and — read from the receivers' own grpo-step receipts, not from the attacker — trains on no group the
// attacker sent while it does train on the other tabs' groups.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { rolloutGroupHash } from '../src/core/learning/group-hash.ts'
import { SCORE_IGNORE } from '../src/core/learning/peer-standing.ts'
import { DROPPED } from '../src/core/learning/drop-log.ts'
import { REFUSAL } from '../src/core/learning/swarm-round.ts'
import { attackableTabs, attackOn, ATTACK_LEARNING, ATTACK_ROUND_MS } from './attack-tabs.ts'
import { launchBrowser } from './browser.ts'
import { spawnHostilePeer, type HostilePeer } from './hostile-peer.ts'
import {
  attribute,
  fullRound,
  leaderboardOf,
  playwrightTab,
  receiptsOf,
  roundsOf,
  text,
  until,
  type RoundItem,
} from './learning-tabs.ts'
import {
  REFUSED_AS,
  REPLAYS_PER_ROUND,
  ROUND_ATTACK_CLASSES,
  type RoundAttackReport,
} from './round-attack.ts'
import { openTab } from './tabs.ts'

/** Rounds attacked; every tab must complete each of them and the one after (which judges the last's lookahead). */
const ROUNDS = 5
const ROUND_MS = ATTACK_ROUND_MS
const PORTS = { relayPort: 19800, relayHttpPort: 19801, appPort: 19802 }
const HOSTILE_PORT = 19803
const learning = ATTACK_LEARNING

let stack: Stack
let browser: Browser
let hostile: HostilePeer | undefined
let pages: Page[] = []

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  stack = await startStack({
    ...PORTS,
    config: { roundLengthMs: ROUND_MS, learning },
    dist: process.env.TABSWARM_DIST,
  })
  browser = await launchBrowser()
  hostile = await spawnHostilePeer({
    relayAddr: stack.config.relays[0]!,
    port: HOSTILE_PORT,
    swarmId: stack.swarmId,
  })
})

test.afterAll(async () => {
  await hostile?.stop()
  await browser?.close()
  await stack?.stop()
})

/** "3 × reason; 1 × other" (the leaderboard's refused cell title, refusal-reasons.ts) → counts by reason. */
function refusedWhy(title: string | null): Record<string, number> {
  const why: Record<string, number> = {}
  for (const part of (title ?? '').split('; ').filter(Boolean)) {
    const [, n, reason] = /^(\d+) × (.*)$/.exec(part)!
    why[reason!] = Number(n)
  }
  return why
}

/** What the Swarm view shows (it opens it, then the Train view again): the Network card and the peer rows. */
async function swarmView(page: Page) {
  await page.evaluate(`location.hash = '#/swarm'`)
  await expect(page.getByTestId('net-stats')).toBeVisible()
  const reasons = Object.fromEntries(
    await page
      .getByTestId('rejected-reasons')
      .locator('[data-testid^="rejected-"]')
      .evaluateAll((els) =>
        els.map((e) => [
          e.getAttribute('data-testid')!.slice('rejected-'.length),
          Number(e.getAttribute('data-value')),
        ]),
      ),
  ) as Record<string, number>
  const blocked = Number(await page.getByTestId('blocked-peers').getAttribute('data-value'))
  const peers = await page.getByTestId('peer-row').evaluateAll((rows) =>
    rows.map((r) => ({
      id: r.getAttribute('data-peer-id') ?? '',
      connection: r.getAttribute('data-connection') ?? '',
      rejected: (r.querySelector('[data-testid="peer-rejected"]')?.textContent ?? '').trim(),
    })),
  )
  await page.evaluate(`location.hash = '#/train'`)
  return { reasons, blocked, peers }
}

const log = (label: string, rows: RoundItem[]) =>
  console.log(
    `${label}: ${rows
      .map((r) =>
        r.skipped
          ? `${r.round}:skipped(${r.skipped})`
          : `${r.round}:p${r.published}h${r.heard}r${r.refused}i${r.ignored}d${r.dropped}e${r.external}v${r.version}`,
      )
      .join(' ')}`,
  )

test(`3 tabs learn through ${ROUNDS} rounds of every hostile rollouts message, refuse and count each, and train on none`, async () => {
  test.setTimeout(360_000)
  pages = await Promise.all(
    [0, 1, 2].map(async () => openTab(await browser.newContext(), `${stack.url}?debug#/train`)),
  )
  const tabs = pages.map((page, i) => playwrightTab(`tab ${i}`, page))
  const attacker = hostile!
  const ids = await attackableTabs(tabs, attacker)

  const report: RoundAttackReport = await attacker.roundAttack(
    attackOn(stack.config.genesisTime, ROUNDS, ids),
  )
  console.log(`attacked rounds ${report.rounds.join(' ')}: messages ${JSON.stringify(report.messages)}`)
  expect(report.rounds).toHaveLength(ROUNDS)
  for (const cls of ROUND_ATTACK_CLASSES) expect(report.messages[cls], cls).toBeGreaterThanOrEqual(ROUNDS)
  const checked = [...report.rounds, report.rounds.at(-1)! + 1]
  const all = await until(
    () => Promise.all(tabs.map(roundsOf)),
    (rows) => rows.every((r) => checked.every((round) => r.some((x) => x.round === round))),
    4 * ROUND_MS,
  )
  all.forEach((rows, i) => log(tabs[i]!.label, rows))

  const attackers = new Set([report.main, ...Object.values(report.identities).flat()])
  const sentHashes = new Set(report.groups.map((g) => rolloutGroupHash(g.group)))
  for (const [i, tab] of tabs.entries()) {
    const rows = all[i]!.filter((r) => checked.includes(r.round))
    // Every attacked round (and the next) ran in full: published, heard the others, trained on its own
    // and their groups, one step a round, each with its receipt. (The micro model's groups mostly have
    // equal rewards, so a step often leaves the weights as they were: the hash is logged, not required.)
    expect(rows.map((r) => r.round)).toEqual(checked)
    expect(
      rows.filter((r) => !fullRound(r)),
      `${tab.label}: rounds not run in full`,
    ).toEqual([])
    expect(rows.map((r) => r.version - rows[0]!.version)).toEqual(checked.map((_, k) => k))
    expect(rows.filter((r) => r.receipt === '')).toEqual([])
    console.log(
      `${tab.label}: ${new Set(rows.map((r) => r.weights)).size} distinct weights over ${rows.length} rounds`,
    )
    // Each attacked round refused groups; from the second on the attacker's own are ignored unheard.
    for (const r of rows.slice(0, ROUNDS))
      expect(r.refused, `${tab.label} round ${r.round}`).toBeGreaterThan(0)
    for (const r of rows.slice(1, ROUNDS))
      expect(r.ignored, `${tab.label} round ${r.round}`).toBeGreaterThan(0)
    // and dropped some before judging, counted against their senders (the forwarded replays' first copies
    // name a round already collected)
    for (const r of rows.slice(0, ROUNDS))
      expect(r.dropped, `${tab.label} round ${r.round}`).toBeGreaterThan(0)

    // The Network card counts the classes its validator refuses, by reason, and charges only what the
    // forwarder should have refused itself: nobody is hung up on, honest tabs have no charged refusal.
    const view = await swarmView(pages[i]!)
    console.log(`${tab.label}: network refusals ${JSON.stringify(view.reasons)}, blocked ${view.blocked}`)
    expect(view.reasons['malformed']).toBe(report.messages.infinity)
    expect(view.reasons['stale']).toBeGreaterThanOrEqual(2 * ROUNDS)
    expect(view.reasons['replay']).toBeGreaterThanOrEqual(REPLAYS_PER_ROUND)
    expect(view.blocked).toBe(0)
    for (const other of ids.filter((id) => id !== ids[i])) {
      const row = view.peers.find((p) => p.id === other)
      expect(row?.connection, `${tab.label} → ${other}`).toBe('direct')
      expect(row?.rejected).toBe('0')
    }
    const shown = view.peers.find((p) => p.id === report.main)
    expect(Number(shown?.rejected)).toBeGreaterThanOrEqual(ROUNDS)

    // The Train leaderboard: the attacker's identity is refused for every class it sent and ignored;
    // each fresh identity is refused for its class's reason alone; none had a group accepted.
    const board = await leaderboardOf(tab)
    const titles = await pages[i]!.locator('[data-testid=leaderboard-row]').evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((r) => [
          r.getAttribute('data-peer'),
          r.querySelector('[data-testid=leaderboard-refused]')?.getAttribute('title') ?? null,
        ]),
      ),
    )
    const mainRow = board.find((r) => r.peer === report.main)
    expect(mainRow, `${tab.label} lists the attacker`).toBeDefined()
    expect(mainRow!.score).toBeLessThan(SCORE_IGNORE)
    // (a known sender's title lists its drops too: only the judged reasons are the class's)
    const dropped = new Set<string>(Object.values(DROPPED))
    const judgedWhy = (id: string) => Object.keys(refusedWhy(titles[id]!)).filter((w) => !dropped.has(w))
    expect(judgedWhy(report.main).sort()).toEqual(
      [REFUSAL.source, REFUSAL.draw, REFUSAL.tokens, REFUSAL.length].sort(),
    )
    for (const cls of ROUND_ATTACK_CLASSES) {
      const reason = REFUSED_AS[cls].round
      const judged = report.identities[cls].filter((id) => board.some((r) => r.peer === id))
      // a capturer may find the unknown senders' share of the pool full, a stale message arrive past the
      // age limit or name a round gone by, a forwarded replay's first copy name a round its receivers have
      // finished: those are counted in the round's drops (not charged, so the free key gets no record)
      if (reason === undefined) expect(judged, cls).toEqual([])
      else if (cls === 'pool-capture' || cls === 'stale') expect(judged.length, cls).toBeGreaterThan(0)
      else expect(judged, cls).toEqual(report.identities[cls])
      for (const id of judged) expect(judgedWhy(id), `${cls} ${id}`).toEqual([reason])
    }
    for (const row of board.filter((r) => attackers.has(r.peer)))
      expect(row.refused, row.peer).toBeGreaterThan(0)
    // Ranked: the tabs alone. Every attacker identity is listed apart, unranked, under its own count.
    expect(
      board
        .filter((r) => r.ranked)
        .map((r) => r.peer)
        .sort(),
      tab.label,
    ).toEqual([...ids].sort())
    expect(Number(await text(tab, 'leaderboard-count'))).toBe(ids.length)
    expect(Number(await text(tab, 'leaderboard-refused-count'))).toBe(board.length - ids.length)

    // The receipts say what was trained on: no group of any attacker identity, none the attacker sent
    // under any name — and the other tabs' groups, so the check can fail.
    const trained = (await receiptsOf(tab)).flatMap((r) => r.trainedGroups ?? [])
    expect(trained.length).toBeGreaterThan(0)
    expect(trained.filter((g) => attackers.has(g.from))).toEqual([])
    expect(trained.filter((g) => sentHashes.has(g.hash))).toEqual([])
    expect(trained.filter((g) => ids.includes(g.from) && g.from !== ids[i]).length).toBeGreaterThan(0)
  }
  for (const tab of tabs) expect(await attribute(tab, 'learning-status', 'title')).toBeNull()
  await pages[0]!.screenshot({ path: test.info().outputPath('round-attack-train.png'), fullPage: true })
  // the refused senders open on a click, a row of them opens its detail like a ranked one
  await pages[0]!.getByTestId('leaderboard-refused-senders').locator('summary').click()
  await pages[0]!.locator(`[data-testid=leaderboard-row][data-peer="${report.main}"]`).click()
  await expect(pages[0]!.getByTestId('peer-detail-refused')).toHaveText(/^[1-9]\d*$/)
  await pages[0]!.screenshot({ path: test.info().outputPath('round-attack-refused.png'), fullPage: true })
  await pages[0]!.evaluate(`location.hash = '#/swarm'`)
  await pages[0]!.screenshot({ path: test.info().outputPath('round-attack-swarm.png'), fullPage: true })
})
