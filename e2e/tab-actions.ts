// What a person does in a tab, and waits for, in the identity and settings specs.
import { expect, type Page } from '@playwright/test'

/** Imports an identity file through the Swarm view's file input; the page reloads with it. */
export async function importFile(page: Page, path: string): Promise<void> {
  const reloaded = page.waitForEvent('load')
  await page.getByTestId('import-input').setInputFiles(path)
  await reloaded
}

/** Opens the Settings view through the nav. */
export async function openSettings(page: Page): Promise<void> {
  await page.getByTestId('nav-settings').click()
  await expect(page.getByTestId('view-settings')).toBeVisible()
}

/** Opens the Swarm view through the nav. */
export async function openSwarm(page: Page): Promise<void> {
  await page.getByTestId('nav-swarm').click()
  await expect(page.getByTestId('view-swarm')).toBeVisible()
}
