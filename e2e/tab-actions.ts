// What a person does in a tab, and waits for, in the identity and settings specs.
import { expect, type Locator, type Page } from '@playwright/test'

/** A view's link in the header's nav, by the name a person reads ("Swarm", "Settings"). */
export const viewLink = (page: Page, name: string): Locator =>
  page.getByRole('navigation', { name: 'views' }).getByRole('link', { name, exact: true })

/** A page's link in the Markets view's own nav ("Markets", "Portfolio", "Create a market"). */
export const marketsLink = (page: Page, name: string): Locator =>
  page.getByRole('navigation', { name: 'Markets', exact: true }).getByRole('link', { name, exact: true })

/** Imports an identity file through the Swarm view's file input; the page reloads with it. */
export async function importFile(page: Page, path: string): Promise<void> {
  const reloaded = page.waitForEvent('load')
  await page.getByTestId('import-input').setInputFiles(path)
  await reloaded
}

/** Opens the Settings view through the nav. */
export async function openSettings(page: Page): Promise<void> {
  await viewLink(page, 'Settings').click()
  await expect(page.getByTestId('view-settings')).toBeVisible()
}

/** Opens the Swarm view through the nav. */
export async function openSwarm(page: Page): Promise<void> {
  await viewLink(page, 'Swarm').click()
  await expect(page.getByTestId('view-swarm')).toBeVisible()
}
