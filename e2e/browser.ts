// Launches Chromium for the specs: the system one where it exists (Debian: /usr/lib/chromium/chromium),
// otherwise Playwright's own browser, so the tests run on machines without a system Chromium too.
import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from '@playwright/test'

const SYSTEM_CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser']

/** Flags from runtime-notes.md: no sandbox as root, no background network noise, WebGPU on SwiftShader,
 * WebRTC over loopback. */
export const BASE_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--enable-unsafe-webgpu',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
]

/** Keep background tabs running at full speed (multi-tab tests); the hidden-tab test leaves them out. */
export const NO_THROTTLING_ARGS = [
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
]

export function systemChromium(): string | undefined {
  return process.env.CHROMIUM_PATH ?? SYSTEM_CHROMIUM.find((p) => existsSync(p))
}

type BrowserOptions = { throttling?: boolean } & LaunchOptions

function launchOptions({ throttling = false, args = [], ...rest }: BrowserOptions): LaunchOptions {
  return {
    executablePath: systemChromium(),
    headless: true,
    args: [...BASE_ARGS, ...(throttling ? [] : NO_THROTTLING_ARGS), ...args],
    ...rest,
  }
}

export function launchBrowser(opts: BrowserOptions = {}): Promise<Browser> {
  return chromium.launch(launchOptions(opts))
}

/** A browser in its own process that a test can kill (SIGKILL) to crash its tabs. */
export async function launchKillableBrowser(
  opts: BrowserOptions = {},
): Promise<{ browser: Browser; server: BrowserServer }> {
  const server = await chromium.launchServer(launchOptions(opts))
  return { browser: await chromium.connect(server.wsEndpoint()), server }
}
