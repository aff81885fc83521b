// A test page folder (e2e/*-page/: not part of the app) built with Vite into a temporary folder,
// served by the app server and opened in Chromium: what the kernel and program specs share.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from '@playwright/test'
import { build } from 'vite'
import { startAppServer } from '../src/node/cli/app-server.ts'
import { localSwarmConfig } from '../src/node/cli/local-swarm-config.ts'
import { launchBrowser } from './browser.ts'

export interface TestPageSite {
  readonly url: string
  readonly browser: Browser
  close(): Promise<void>
}

/** Builds `folder` (a URL of a page folder with index.html), serves it on `port`, launches Chromium. */
export async function serveTestPage(folder: URL, port: number): Promise<TestPageSite> {
  const dist = await mkdtemp(join(tmpdir(), 'test-page-'))
  await build({
    configFile: false,
    root: fileURLToPath(folder),
    logLevel: 'warn',
    build: { outDir: dist, emptyOutDir: true },
  })
  const server = await startAppServer({ root: dist, port, swarmConfig: localSwarmConfig([]) })
  const browser = await launchBrowser()
  return {
    url: server.url,
    browser,
    async close() {
      await browser.close()
      await server.close()
      await rm(dist, { recursive: true, force: true })
    },
  }
}
