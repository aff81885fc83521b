// Driving a learning tab the same way whether Playwright controls it or it is a hidden tab over the raw
// DevTools protocol (cdp-tab.ts): everything goes through expressions evaluated in the page, reading
// the data attributes the app renders for tests and clicking what a person would click.
import { expect, type Page } from '@playwright/test'
import { DEFAULT_LEARNING, type LearningConfig } from '../src/core/learning/learning-config.ts'
import type { CdpTab } from './cdp-tab.ts'

/**
 * The KL weight of the specs' swarms. With a KL term every trained group pulls its tokens toward the
 * reference, so every round takes a step and writes its receipt whether or not the micro model's groups
 * differ (without one, a round whose groups all agree takes no step: src/core/learning/swarm-round.ts); the
 * steps, receipts and reloads are what the specs check.
 */
export const KL_EVERY_ROUND = 0.05

/**
 * Three tabs learning on the micro model: 2 tasks of G = 2 a round, one own and one heard group trained,
 * 12 sampled tokens, a large step. With 15 s rounds the window closes after 6 s and three tabs' GRPO
 * steps (TS twin) share two cores in the 9 s left.
 */
export const MICRO_LEARNING: LearningConfig = {
  ...DEFAULT_LEARNING,
  model: '/models/tabswarm-micro/',
  sources: [{ kind: 'reasoning', family: 'arithmetic' }],
  windowFraction: 0.4,
  evalEvery: 3,
  groupSize: 2,
  tasksPerRound: 2,
  sapo: { localGroups: 1, externalGroups: 1 },
  sampling: { ...DEFAULT_LEARNING.sampling, maxNewTokens: 12 },
  grpo: { ...DEFAULT_LEARNING.grpo, lr: 1e-2, klBeta: KL_EVERY_ROUND },
}

/** Polls `read` every second until `done` holds; returns the last value read, or logs it on failure. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeout: number,
): Promise<T> {
  let last: T | undefined
  try {
    await expect.poll(async () => done((last = await read())), { timeout, intervals: [1_000] }).toBe(true)
  } catch (error) {
    console.log(`last read: ${JSON.stringify(last)}`)
    throw error
  }
  return last!
}

export interface LearningTab {
  label: string
  evaluate<T>(expression: string): Promise<T>
}

export const playwrightTab = (label: string, page: Page): LearningTab => ({
  label,
  evaluate: <T>(expression: string) => page.evaluate<T>(expression),
})

export const cdpTab = (label: string, tab: CdpTab): LearningTab => ({
  label,
  evaluate: <T>(expression: string) => tab.evaluate<T>(expression),
})

/** One finished (or skipped) round, from the header's hidden list (src/ui/LearningStatus.tsx, with ?debug). */
export interface RoundItem {
  round: number
  skipped: string
  published: number
  heard: number
  /** groups refused (bad task id, tokens not matching their text) and ignored (from a distrusted sender) */
  refused: number
  ignored: number
  /** messages and groups dropped before judging (late, another round's, no room, over a sender's share) */
  dropped: number
  local: number
  external: number
  version: number
  /** the round's mean own reward, exactly as the tab holds it */
  reward: number
  /** weights after the round's step; '' without one */
  weights: string
  chainTip: string
  receipt: string
}

/** A training receipt of this page session (newest first in the page), parsed. */
export interface ReceiptItem {
  receiptHash: string
  weightsHash: string
  chainTip: string
  chainLength: number
  /** the groups the step trained on: each sender and rolloutGroupHash (src/core/learning/group-hash.ts) */
  trainedGroups?: { from: string; hash: string }[]
  [field: string]: unknown
}

export interface SubmissionItem {
  round: number
  status: string
  tx: string
  /** the last error, as the panel shows it */
  error: string
}

export interface LeaderItem {
  peer: string
  chainReward: string
  wins: string
  /** this tab's trust in the peer's rollouts, and the groups it refused */
  score: number
  refused: number
  /** false: listed apart among the senders with every group refused */
  ranked: boolean
}

const items = (testId: string) =>
  `[...document.querySelectorAll('[data-testid=${testId}] li')].map((li) => ({ ...li.dataset }))`

export async function roundsOf(tab: LearningTab): Promise<RoundItem[]> {
  const raw = await tab.evaluate<Record<string, string>[]>(items('learning-rounds'))
  return raw.map((d) => ({
    round: Number(d.round),
    skipped: d.skipped ?? '',
    published: Number(d.published),
    heard: Number(d.heard),
    refused: Number(d.refused),
    ignored: Number(d.ignored),
    dropped: Number(d.dropped ?? 0),
    local: Number(d.local),
    external: Number(d.external),
    version: Number(d.version),
    reward: Number(d.reward),
    weights: d.weights ?? '',
    chainTip: d.chainTip ?? '',
    receipt: d.receipt ?? '',
  }))
}

export async function receiptsOf(tab: LearningTab): Promise<ReceiptItem[]> {
  const raw = await tab.evaluate<Record<string, string>[]>(items('learning-receipts'))
  return raw.map((d) => JSON.parse(d.json!) as ReceiptItem)
}

/** The Train view's submissions table (the view must be open). */
export const submissionsOf = (tab: LearningTab): Promise<SubmissionItem[]> =>
  tab.evaluate(
    `[...document.querySelectorAll('[data-testid=submission-row]')].map((r) => ({
      round: Number(r.dataset.round), status: r.dataset.status, tx: r.dataset.tx,
      error: r.nextElementSibling?.querySelector('[data-testid=submission-error]')?.textContent ?? '' }))`,
  )

/** The Train view's leaderboard rows (the view must be open). */
export const leaderboardOf = (tab: LearningTab): Promise<LeaderItem[]> =>
  tab.evaluate(
    `[...document.querySelectorAll('[data-testid=leaderboard-row]')].map((r) => ({
      peer: r.dataset.peer, chainReward: r.dataset.chainReward, wins: r.dataset.wins,
      score: Number(r.dataset.score), refused: Number(r.dataset.refused),
      ranked: r.closest('[data-testid=leaderboard-refused-senders]') === null }))`,
  )

export const attribute = (tab: LearningTab, testId: string, name: string): Promise<string | null> =>
  tab.evaluate(`document.querySelector('[data-testid=${testId}]')?.getAttribute('${name}') ?? null`)

export const text = (tab: LearningTab, testId: string): Promise<string | null> =>
  tab.evaluate(`document.querySelector('[data-testid=${testId}]')?.textContent?.trim() ?? null`)

/** Clicks an element by test id; false when it is not on the page (yet). */
export const click = (tab: LearningTab, testId: string): Promise<boolean> =>
  tab.evaluate(`(() => {
    const el = document.querySelector('[data-testid=${testId}]')
    if (!el || el.disabled) return false
    el.click()
    return true
  })()`)

/**
 * What a tab shows on the way to learning and to its wallet, for a failure message: the learning
 * phase and banner, the network, and (opening the Wallet view) the wallet's status and error.
 */
export async function startState(tab: LearningTab): Promise<Record<string, string | null>> {
  const state = {
    phase: await attribute(tab, 'train-phase', 'data-phase'),
    banner: await text(tab, 'train-banner'),
    net: await attribute(tab, 'net-status', 'data-status'),
    submissions: await text(tab, 'train-submissions'),
  }
  await tab.evaluate(`location.hash = '#/wallet'`)
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  return { ...state, wallet: await text(tab, 'wallet-status'), walletError: await text(tab, 'wallet-error') }
}

/** Opens a view by its hash and waits until it has rendered: a view's code loads when it is first shown. */
export async function openView(tab: LearningTab, view: string): Promise<void> {
  await tab.evaluate(`location.hash = '#/${view}'`)
  await until(
    () => tab.evaluate<boolean>(`document.querySelector('main[data-testid="view-${view}"] .card') !== null`),
    Boolean,
    15_000,
  )
}

/** A round the tab ran in full: it published, heard, and trained on its own and others' groups. */
export const fullRound = (r: RoundItem): boolean =>
  !r.skipped && r.published > 0 && r.heard > 0 && r.local > 0 && r.external > 0
