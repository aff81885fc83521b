// Driving the Solve view the way a person does, and reading back what it shows.
import { expect, type Page } from '@playwright/test'
import { SETTING_LIMITS } from '../src/ui/solve/setting-limits.ts'

export interface SolveSettings {
  family?: string
  difficulty?: number
  seed?: number
  samples?: number
  temperature?: number
  maxTokens?: number
}

const SETTING_FIELDS = ['seed', 'samples', 'temperature', 'maxTokens'] as const

/** Waits for the model to be ready (the progress total at 100%); returns the model card's name. */
export async function waitForModel(page: Page, timeout = 30_000): Promise<string> {
  await expect(page.getByTestId('model-status')).toHaveAttribute('data-phase', 'ready', { timeout })
  await expect(page.getByTestId('model-progress-total')).toHaveAttribute('data-percent', '100')
  return (await page.getByTestId('model-name').textContent())!.trim()
}

export async function setSettings(page: Page, settings: SolveSettings): Promise<void> {
  if (settings.family !== undefined) await page.getByLabel('family').selectOption(settings.family)
  if (settings.difficulty !== undefined)
    await page.getByLabel('difficulty').selectOption(String(settings.difficulty))
  for (const key of SETTING_FIELDS) {
    const value = settings[key]
    if (value !== undefined)
      await page.getByLabel(SETTING_LIMITS[key].label, { exact: true }).fill(String(value))
  }
}

/** Clicks "Solve N in a row" and waits until the history holds `expectedRows` rows. */
export async function solveInARow(page: Page, count: number, expectedRows: number, timeout = 60_000) {
  await page.getByLabel('tasks in a row').fill(String(count))
  await page.getByRole('button', { name: /^Solve \d+ in a row$/ }).click()
  await expect(page.getByTestId('batch-progress')).toBeVisible()
  await expect(page.getByTestId('history-row')).toHaveCount(expectedRows, { timeout })
  await expect(page.getByTestId('batch-progress')).toBeHidden()
}

export interface ShownRow {
  rewards: number[]
  formatted: number
}

/** The history table's rows as shown (newest first). */
export function historyRows(page: Page): Promise<ShownRow[]> {
  return page.getByTestId('history-row').evaluateAll((rows) =>
    rows.map((r) => ({
      rewards: (r.getAttribute('data-rewards') ?? '').split(' ').filter(Boolean).map(Number),
      formatted: Number(r.getAttribute('data-formatted')),
    })),
  )
}

/** Chooses a folder through the "Pick folder" input, as <input webkitdirectory> delivers it. */
export async function pickFolder(page: Page, dir: string): Promise<void> {
  await page.getByTestId('model-folder-input').setInputFiles(dir)
}
