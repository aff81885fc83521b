// Reading a tab's swarm state the way a person would: from what the Swarm view shows.
import { expect, type BrowserContext, type Page } from '@playwright/test'

export interface PeerRow {
  id: string
  connection: string
  presence: number
  addrs: string[]
}

export async function openTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto(url)
  return page
}

export async function selfId(page: Page): Promise<string> {
  const id = page.getByTestId('self-peer-id')
  await expect(id).toHaveText(/^(12D3KooW|Qm)\w+$/)
  return (await id.textContent())!.trim()
}

export async function selfName(page: Page): Promise<string> {
  return (await page.getByTestId('self-name').textContent())!.trim()
}

export async function peerRows(page: Page): Promise<PeerRow[]> {
  return page.getByTestId('peer-row').evaluateAll((rows) =>
    rows.map((r) => ({
      id: r.getAttribute('data-peer-id') ?? '',
      connection: r.getAttribute('data-connection') ?? '',
      presence: Number(r.getAttribute('data-presence') ?? '0'),
      addrs: (r.getAttribute('data-addrs') ?? '').split(' ').filter(Boolean),
    })),
  )
}

/** Waits until `page` lists exactly the peers `ids` (by id) and `check` holds for each of them. */
export async function waitForPeers(
  page: Page,
  ids: readonly string[],
  check: (row: PeerRow) => boolean,
  timeout = 15_000,
): Promise<PeerRow[]> {
  let last: PeerRow[] = []
  await expect
    .poll(
      async () => {
        last = await peerRows(page)
        const ok = ids.every((id) => last.some((r) => r.id === id && check(r)))
        return ok
      },
      { timeout, intervals: [100, 200, 250] },
    )
    .toBe(true)
  return last
}

/** Waits until `page` no longer lists peer `id` (its row is gone). */
export async function waitForPeerGone(page: Page, id: string, timeout: number): Promise<void> {
  await expect
    .poll(async () => (await peerRows(page)).some((r) => r.id === id), { timeout, intervals: [100] })
    .toBe(false)
}
