// A tab driven over the raw DevTools protocol instead of Playwright. Playwright turns on focus
// emulation for every page it controls, so its pages always report `visibilityState === 'visible'`;
// a test of what a *hidden* tab does needs a page Playwright does not touch.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import WebSocket from 'ws'
import { BASE_ARGS, systemChromium } from './browser.ts'

export interface CdpTab {
  /** evaluates an expression in the page and returns its JSON value */
  evaluate<T>(expression: string): Promise<T>
  close(): Promise<void>
}

interface CdpReply {
  id?: number
  result?: {
    targetInfos?: { targetId: string; type: string }[]
    sessionId?: string
    result?: { value?: unknown }
  }
  error?: { message: string }
}

/**
 * Opens `url` in a new Chromium process (started with `args`), then opens a second tab in front of it,
 * which makes the first one hidden as a background tab is for a person.
 */
export async function openBackgroundTab(
  url: string,
  debugPort: number,
  args: string[] = [],
): Promise<CdpTab> {
  const profile = mkdtempSync(join(tmpdir(), 'tabswarm-cdp-'))
  const proc: ChildProcess = spawn(
    systemChromium() ?? chromium.executablePath(),
    [
      '--headless',
      ...BASE_ARGS,
      ...args,
      `--remote-debugging-port=${debugPort}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    // its own process group, so close() can end the helper processes (renderer, GPU, utility) too
    { stdio: 'ignore', detached: true },
  )
  const endpoint = await waitForEndpoint(debugPort)
  const ws = new WebSocket(endpoint)
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let nextId = 1
  const pending = new Map<number, (r: CdpReply) => void>()
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as CdpReply
    if (msg.id !== undefined) pending.get(msg.id)?.(msg)
  })
  const send = (method: string, params: object = {}, sessionId?: string): Promise<CdpReply> =>
    new Promise((resolve, reject) => {
      const id = nextId++
      pending.set(id, (r) => {
        pending.delete(id)
        if (r.error) reject(new Error(`${method}: ${r.error.message}`))
        else resolve(r)
      })
      ws.send(JSON.stringify({ id, method, params, sessionId }))
    })

  const targets = (await send('Target.getTargets')).result?.targetInfos ?? []
  const first = targets.find((t) => t.type === 'page')
  if (!first) throw new Error('Chromium opened no page')
  const sessionId = (await send('Target.attachToTarget', { targetId: first.targetId, flatten: true })).result
    ?.sessionId
  await send('Page.navigate', { url }, sessionId)
  await send('Target.createTarget', { url: 'about:blank' })

  return {
    async evaluate<T>(expression: string): Promise<T> {
      const r = await send(
        'Runtime.evaluate',
        { expression, returnByValue: true, awaitPromise: true },
        sessionId,
      )
      return r.result?.result?.value as T
    },
    async close() {
      ws.close()
      const exited = new Promise((r) => proc.once('exit', r))
      // the whole group: killing only the browser process left helpers writing into the profile,
      // and removing it failed with ENOTEMPTY (seen in CI)
      process.kill(-proc.pid!, 'SIGKILL')
      await exited
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
      } catch (error) {
        // a temporary profile left behind harms no test; say so instead of failing the one that ran
        console.warn(`cdp-tab: could not remove ${profile}: ${String(error)}`)
      }
    },
  }
}

async function waitForEndpoint(port: number): Promise<string> {
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`)
      return ((await res.json()) as { webSocketDebuggerUrl: string }).webSocketDebuggerUrl
    } catch {
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  throw new Error(`Chromium's DevTools endpoint on port ${port} did not come up`)
}
