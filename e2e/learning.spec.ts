// Relay + chain + 3 tabs learning together on the micro model, one of them hidden (a background tab of
// its own Chromium, throttling on). Every round each tab samples on its solver worker, shares its groups
// over gossipsub, hears the others', trains on its own and their groups on its trainer worker, swaps
// the new weights in, and queues the round's reward, chain tip and winners for the coordinator, which
// the burner sends without asking once the tab allows it. Checked from Node against the chain: every
// round's reward and chain tip, and that the three Train leaderboards agree with the coordinator. Then
// one tab is reloaded mid-round and must extend its training chain from exactly where it stopped.
import '../src/polyfills/promise-with-resolvers.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { createTestClient, http, type Address, type Hex } from 'viem'
import { swarmCoordinatorAbi } from '../src/host/chain/generated/SwarmCoordinator.ts'
import { REWARD_SCALE, chainTipBytes32 } from '../src/host/rewards/submission-queue.ts'
import type { LocalClients } from '../src/host/chain/local-clients.ts'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { learningCells } from '../src/core/learning/learning-config.ts'
import { SCORE_IGNORE } from '../src/core/learning/peer-standing.ts'
import { REFUSAL } from '../src/core/learning/swarm-round.ts'
import { extend, stepDigest, type StepWork } from '../src/core/protocol/hash-chain.ts'
import { validate } from '../src/core/protocol/receipt.ts'
import { launchBrowser } from './browser.ts'
import { openBackgroundTab, type CdpTab } from './cdp-tab.ts'
import {
  attribute,
  cdpTab,
  click,
  fullRound,
  leaderboardOf,
  MICRO_LEARNING,
  openView,
  playwrightTab,
  receiptsOf,
  roundsOf,
  startState,
  submissionsOf,
  text,
  until,
  type LearningTab,
  type RoundItem,
} from './learning-tabs.ts'
import { spawnHostilePeer, type HostilePeer } from './hostile-peer.ts'
import { openTab } from './tabs.ts'
import { chainFromNode } from './wallet-actions.ts'

/** Rounds every tab must run fully (published, heard, trained on external groups) and confirm on chain. */
const ROUNDS = 5
// 15 s rounds (MICRO_LEARNING says why)
const ROUND_MS = 15_000
const PORTS = { relayPort: 19720, relayHttpPort: 19721, chainPort: 19722, appPort: 19723 }
/** The hidden tab's Chromium is driven over its DevTools port. */
const DEBUG_PORT = 19724
/** How often a block is mined once the tabs are registered (see the test). */
const BLOCK_MS = 2_000
/** The forger's WebSockets port, which the tabs dial. */
const HOSTILE_PORT = 19725
/** A refused group costs 0.2 of a score of 1: below the ignore threshold after this many. */
const REFUSALS_TO_IGNORE = 3
const learning = MICRO_LEARNING

interface Peer {
  tab: LearningTab
  id: string
  wallet: Address
}

let tmp: string
let stack: Stack
let browser: Browser
let hidden: CdpTab | undefined
let hostile: HostilePeer | undefined
let pages: Page[] = []
let peers: Peer[] = []
let chain: LocalClients & { rpcUrl: string }
let ticker: ReturnType<typeof setInterval> | undefined

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tabswarm-learning-'))
  stack = await startStack({
    relayPort: PORTS.relayPort,
    relayHttpPort: PORTS.relayHttpPort,
    appPort: PORTS.appPort,
    chain: { port: PORTS.chainPort, stateFile: join(tmp, 'anvil-state.json') },
    config: { roundLengthMs: ROUND_MS, learning },
    // TABSWARM_DIST: a build of one's own, when others share the checkout's dist/
    dist: process.env.TABSWARM_DIST,
  })
  chain = await chainFromNode(stack)
  browser = await launchBrowser()
  hostile = await spawnHostilePeer({
    relayAddr: stack.config.relays[0]!,
    port: HOSTILE_PORT,
    swarmId: stack.swarmId,
  })
})

test.afterAll(async () => {
  clearInterval(ticker)
  await hostile?.stop()
  await hidden?.close()
  await browser?.close()
  await stack?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

const coordinator = (): Address => {
  if (!stack.deployment) throw new Error('the stack runs no chain')
  return stack.deployment.coordinator
}

/**
 * Registers the tab's peer to its burner through the Wallet view, with routine submissions allowed
 * first: a round queued before that would wait for a person to confirm it.
 */
async function register(tab: LearningTab): Promise<Peer> {
  // the Train view says the burner will ask each round, and offers the switch
  await openView(tab, 'train')
  await until(() => click(tab, 'submissions-auto-approve'), Boolean, 60_000).catch(async (error: unknown) => {
    console.log(`${tab.label} before registering: ${JSON.stringify(await startState(tab))}`)
    throw error
  })
  await until(
    () => text(tab, 'submissions-confirm-hint'),
    (hint) => hint === null,
    5_000,
  )
  // a round that was already asking when the switch went on is answered by the switch itself (the
  // dialog element stays in the page; its buttons exist only while a question waits)
  await until(
    () => text(tab, 'confirm-ok'),
    (button) => button === null,
    5_000,
  )
  await openView(tab, 'wallet')
  expect(
    await tab.evaluate<boolean>(`document.querySelector('[data-testid=auto-approve-swarm]').checked`),
  ).toBe(true)
  await until(
    () => attribute(tab, 'eth-balance', 'data-wei'),
    (wei) => /^[1-9]\d*$/.test(wei ?? ''),
    30_000,
  )
  const wallet = (await text(tab, 'wallet-address')) as Address
  const id = (await attribute(tab, 'header-self-id', 'title'))!
  expect(id).toMatch(/^12D3KooW/)
  await until(() => click(tab, 'register-button'), Boolean, 20_000)
  const phase = await until(
    () => attribute(tab, 'registration-status', 'data-phase'),
    (p) => p === 'confirmed' || p === 'failed',
    30_000,
  )
  if (phase === 'failed') {
    // say why the chain refused it: out of gas (gas used = limit) or a revert
    const hash = (await attribute(tab, 'registration-status-hash', 'title')) as Hex
    const [tx, receipt] = await Promise.all([
      chain.client.getTransaction({ hash }),
      chain.client.getTransactionReceipt({ hash }),
    ])
    const why = `${tab.label}: ${await text(tab, 'registration-status')} (gas ${receipt.gasUsed} of ${tx.gas})`
    expect(phase, why).toBe('confirmed')
  }
  await openView(tab, 'train')
  return { tab, id, wallet }
}

const onChainRound = (peer: Peer, round: number) =>
  chain.client.readContract({
    address: coordinator(),
    abi: swarmCoordinatorAbi,
    functionName: 'getRoundReward',
    args: [BigInt(round), peer.id, peer.wallet],
  })

/** What Node reads from the coordinator for the leaderboard: per peer, total reward and wins. */
async function boardOnChain(): Promise<Record<string, { chainReward: string; wins: string }>> {
  const ref = { address: coordinator(), abi: swarmCoordinatorAbi } as const
  const entries = await Promise.all(
    peers.map(async (p) => {
      const [total, wins] = await Promise.all([
        chain.client.readContract({ ...ref, functionName: 'getTotalRewards', args: [p.id, p.wallet] }),
        chain.client.readContract({ ...ref, functionName: 'getTotalWins', args: [p.id] }),
      ])
      return [p.id, { chainReward: String(Number(total) / REWARD_SCALE), wins: String(wins) }] as const
    }),
  )
  return Object.fromEntries(entries)
}

const log = (tab: LearningTab, rows: RoundItem[]) =>
  console.log(
    `${tab.label}: ${rows
      .map((r) =>
        r.skipped
          ? `${r.round}:skipped(${r.skipped})`
          : `${r.round}:p${r.published}h${r.heard}e${r.external}v${r.version}`,
      )
      .join(' ')}`,
  )

test(`3 tabs, one hidden, learn together for ${ROUNDS} rounds and put every round on chain; the leaderboards agree`, async () => {
  test.setTimeout(300_000)
  pages = await Promise.all(
    [0, 1].map(async () => openTab(await browser.newContext(), `${stack.url}?debug#/train`)),
  )
  // No background-throttling switches for the hidden tab: it gets what a real background tab gets.
  hidden = await openBackgroundTab(`${stack.url}?debug#/train`, DEBUG_PORT)
  const tabs = [
    playwrightTab('tab 0', pages[0]!),
    playwrightTab('tab 1', pages[1]!),
    cdpTab('hidden', hidden),
  ]
  expect(await tabs[2]!.evaluate<string>('document.visibilityState')).toBe('hidden')
  // One after another: the app sends the gas estimate as the limit, and a registration estimated on the
  // fresh coordinator (claim index 0, whose pushes store zeros) runs out of gas when another lands first.
  peers = []
  for (const tab of tabs) peers.push(await register(tab))
  expect(new Set(peers.map((p) => p.id)).size).toBe(3)
  // A live chain makes a block every few seconds; anvil mines only on a transaction, so between two of
  // them its clock (block.timestamp), and the coordinator's current round, stand still and a round's
  // reward is refused as "not open" until something else is sent. From here on, blocks as on a chain.
  const miner = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) })
  ticker = setInterval(() => void miner.mine({ blocks: 1 }).catch(() => {}), BLOCK_MS)
  // From the next round on, a Node peer sends schema-invalid and forged rollouts every round.
  await hostile!.waitForSubscribers(peers.map((p) => p.id))
  const forger = hostile!.peerId
  hostile!
    .forge({
      genesisTime: stack.config.genesisTime,
      roundLengthMs: ROUND_MS,
      offsetMs: 2_000,
      rounds: ROUNDS + 8,
      groupSize: learning.groupSize,
      family: 'arithmetic',
      cells: learningCells(learning),
      tasksPerRound: learning.tasksPerRound,
      tokenizerPath: join('public', learning.model, 'tokenizer.json'),
    })
    // it is stopped with the stack, mid-forgery
    .catch(() => {})

  // rounds every tab ran in full and saw confirmed on chain
  const done = async () => {
    const all = await Promise.all(
      tabs.map(async (tab) => ({ rows: await roundsOf(tab), subs: await submissionsOf(tab) })),
    )
    const good = all.map(
      ({ rows, subs }) =>
        new Set(
          rows
            .filter((r) => fullRound(r) && subs.some((s) => s.round === r.round && s.status === 'confirmed'))
            .map((r) => r.round),
        ),
    )
    return { all, rounds: [...good[0]!].filter((round) => good.every((s) => s.has(round))) }
  }
  const { all, rounds } = await until(done, (d) => d.rounds.length >= ROUNDS, (ROUNDS + 6) * ROUND_MS)
  for (const [i, { rows }] of all.entries()) log(tabs[i]!, rows)

  for (const [i, { rows, subs }] of all.entries()) {
    const peer = peers[i]!
    const full = rows.filter(fullRound)
    // every full round took a step: the policy version climbs by one per round
    const versions = full.map((r) => r.version)
    expect(versions).toEqual([...versions].sort((a, b) => a - b))
    expect(versions.at(-1)!).toBeGreaterThan(versions[0]!)
    // each tab heard both others' groups in some round (2 peers × 2 tasks; the forger's are refused)
    expect(Math.max(...full.map((r) => r.heard))).toBeGreaterThanOrEqual(4)
    // no submission failed, and what the chain holds for each confirmed round is the tab's round
    expect(subs.filter((s) => s.status === 'failed')).toEqual([])
    for (const row of rows.filter((r) => rounds.includes(r.round))) {
      const onChain = await onChainRound(peer, row.round)
      expect(onChain.submitted).toBe(true)
      expect(onChain.reward).toBe(BigInt(Math.round(row.reward * REWARD_SCALE)))
      expect(onChain.chainTip).toBe(chainTipBytes32(row.chainTip || undefined))
    }
  }
  // Every tab refused the forger's groups, distrusts it (below the ignore threshold: its groups are no
  // longer judged nor trained on), and its Train leaderboard shows the refusals.
  for (const [i, tab] of tabs.entries()) {
    const refusedInRounds = all[i]!.rows.reduce((sum, r) => sum + r.refused, 0)
    const row = (await leaderboardOf(tab)).find((r) => r.peer === forger)
    expect(row, `${tab.label} lists the forger`).toBeDefined()
    expect(row!.score).toBeLessThan(SCORE_IGNORE)
    expect(row!.refused).toBeGreaterThanOrEqual(REFUSALS_TO_IGNORE)
    // only the forger sends groups a tab refuses
    expect(row!.refused).toBe(refusedInRounds)
    for (const p of peers) expect((await leaderboardOf(tab)).find((r) => r.peer === p.id)?.refused).toBe(0)
    // the forger, with no group accepted and no claim on chain, is listed apart from the ranked tabs
    expect(row!.ranked).toBe(false)
    expect(
      (await leaderboardOf(tab))
        .filter((r) => r.ranked)
        .map((r) => r.peer)
        .sort(),
    ).toEqual(peers.map((p) => p.id).sort())
  }
  await pages[0]!.getByTestId('leaderboard-refused-senders').locator('summary').click()
  await pages[0]!.locator(`[data-testid=leaderboard-row][data-peer="${forger}"]`).click()
  await expect(pages[0]!.getByTestId('peer-detail-refused')).toHaveText(/^[1-9]\d*$/)
  // its wrong answer claiming reward 1 is refused as such, beside its forged task id and tokens
  for (const why of [REFUSAL.task, REFUSAL.tokens, REFUSAL.rewards])
    await expect(pages[0]!.getByTestId('peer-detail-refused-why')).toContainText(why)
  expect(Number(await pages[0]!.getByTestId('peer-detail-score').textContent())).toBeLessThan(SCORE_IGNORE)

  // the hidden tab published and trained in every round since its first full one
  const hiddenRows = all[2]!.rows
  const first = hiddenRows.findIndex(fullRound)
  expect(hiddenRows.slice(first).filter((r) => !fullRound(r))).toEqual([])
  expect(await tabs[2]!.evaluate<string>('document.visibilityState')).toBe('hidden')

  // The leaderboards agree with the chain, all three at one moment: a round's submissions can land
  // between two reads, so read again until they settle.
  await until(
    async () => {
      const chainBoard = await boardOnChain()
      const boards = await Promise.all(tabs.map(leaderboardOf))
      return boards.every((rows) =>
        peers.every((p) => {
          const row = rows.find((r) => r.peer === p.id)
          return row?.chainReward === chainBoard[p.id]!.chainReward && row.wins === chainBoard[p.id]!.wins
        }),
      )
    },
    Boolean,
    4 * ROUND_MS,
  )
  const board = await boardOnChain()
  // the rewards moved and someone won something: the agreement is not on an empty board
  expect(Object.values(board).some((b) => b.wins !== '0')).toBe(true)
  console.log(`chain leaderboard: ${JSON.stringify(board)}`)

  // nothing went wrong on the way (a receipt that could not be signed or published would say so here)
  for (const tab of tabs) expect(await attribute(tab, 'learning-status', 'title')).toBeNull()
  // The Train view draws the held-out evaluations (every evalEvery rounds) with their 95 % interval band,
  // the groups with a signal per round beside the groups trained, the gradient norm per round, and says
  // what the last round had to learn from.
  await expect(pages[0]!.getByTestId('chart-pass1')).toHaveAttribute('data-bands', /^[1-9]\d*$/, {
    timeout: learning.evalEvery * ROUND_MS,
  })
  await expect(pages[0]!.getByTestId('chart-signal')).toHaveAttribute('data-points', /^([1-9]\d*) \1$/)
  // the gradient norm per round stands for the loss (zero-mean on-policy), with the rounds that had a signal
  await expect(pages[0]!.getByTestId('chart-gradnorm')).toHaveAttribute('data-points', /^[1-9]\d*/)
  await expect(pages[0]!.getByTestId('train-signal-share')).toHaveText(
    /^Rounds with a learning signal \(some group's rewards differed\): \d+ of [1-9]\d*$/,
  )
  await expect(pages[0]!.getByTestId('train-signal-note')).toHaveText(
    /^Round \d+: (no group's rewards differed: nothing to learn this round|\d+ of \d+ groups had a signal \(rewards differed\))\.$/,
  )
  await pages[0]!.screenshot({ path: test.info().outputPath('learning-train.png'), fullPage: true })
})

test('a tab reloaded mid-round extends its training chain from exactly where it stopped', async () => {
  test.setTimeout(120_000)
  const page = pages[0]!
  const tab = playwrightTab('tab 0', page)
  // reload in a collection window: the round's samples are out, its step not taken yet
  await until(
    () => attribute(tab, 'learning-status', 'data-phase'),
    (p) => p === 'collecting',
    2 * ROUND_MS,
  )
  const before = await roundsOf(tab)
  const receiptsBefore = await receiptsOf(tab)
  const last = before.filter((r) => r.receipt).at(-1)!
  const lastReceipt = receiptsBefore.find((r) => r.receiptHash === last.receipt)!
  expect(lastReceipt.chainTip).toBe(last.chainTip)
  await page.reload()

  const status = page.getByTestId('learning-status')
  await expect(status).toHaveAttribute('data-version', /\d/, { timeout: 30_000 })
  // the trainer resumed its snapshot: the version the last step left, not the shipped weights
  expect(Number(await status.getAttribute('data-version'))).toBe(last.version)
  // the rounds from before the reload are back
  await expect
    .poll(async () => (await roundsOf(tab)).slice(0, before.length), { timeout: 10_000 })
    .toEqual(before)

  // the first step after the reload: from the last saved weights, one link further on the same chain
  const [next] = await until(
    () => receiptsOf(tab),
    (r) => r.length > 0,
    4 * ROUND_MS,
  )
  expect(await validate(next)).toEqual({ ok: true })
  // it names every group it trained on, by sender and group hash
  expect(next!.trainedGroups?.length).toBeGreaterThan(0)
  for (const g of next!.trainedGroups!) expect(g.hash).toMatch(/^[0-9a-f]{64}$/)
  expect(next!.weightsHash).toBe(last.weights)
  expect(next!.chainLength).toBe(lastReceipt.chainLength + 1)
  const link = extend(
    { tip: lastReceipt.chainTip, length: lastReceipt.chainLength },
    stepDigest(next as unknown as StepWork),
  )
  expect(link).toEqual({ tip: next!.chainTip, length: next!.chainLength })
  const after = await until(
    () => roundsOf(tab),
    (rows) => rows.some((r) => r.receipt === next!.receiptHash),
    ROUND_MS,
  )
  expect(after.find((r) => r.receipt === next!.receiptHash)!.version).toBe(last.version + 1)

  // and that step is the one an uninterrupted run takes from there: the Verify view re-executes it on
  // the TS twin from its side file (the last saved weights and optimizer state, the round's batch)
  await openView(tab, 'verify')
  await page
    .locator(`[data-testid=received-row][data-receipt="${next!.receiptHash}"][data-ours=true]`)
    .click()
  await page.getByRole('button', { name: 'Re-execute' }).click()
  await expect(page.getByTestId('verify-rerun-verdict')).toHaveAttribute('data-ok', 'true', {
    timeout: 60_000,
  })
  await openView(tab, 'train')
})
