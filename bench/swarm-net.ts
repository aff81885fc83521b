// The swarm's network in real Chromium tabs on loopback: time from page load to the first direct WebRTC
// link, gossip latency (256 B, 8 KiB) across 5 tabs, and gossip fan-out throughput — each next to a
// baseline measured in the same run (relay connection time, libp2p ping RTT/2, a raw libp2p stream over
// the same WebRTC link), since this machine is shared and noisy. Loopback only; stops by itself.
//   node --import ./src/polyfills/register.js bench/swarm-net.ts
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { launchBrowser } from '../e2e/browser.ts'
import { fmt, percentile, printTable, type Row } from './stats.ts'

const TABS = 5
/** Page-load runs; each gives TABS samples. */
const LOAD_RUNS = 3
/** Messages each tab publishes per size; spaced so the test measures latency, not queueing. */
const MESSAGES_PER_TAB = 30
const SPACING_MS = 60
const SIZES = [256, 8 * 1024]
/** Fan-out: one tab publishes this much as 64 KiB messages to the other four. */
const FANOUT_BYTES = 4 * 1024 * 1024
const CHUNK = 64 * 1024
const PORTS = { relayPort: 18200, relayHttpPort: 18201, appPort: 18202 }
const BENCH_TOPIC = '/tabswarm-bench/1'
const SINK_PROTOCOL = '/tabswarm-bench/sink/1'
const resultsFile = fileURLToPath(new URL('./results/swarm-net.json', import.meta.url))

async function openTabs(browser: Browser, url: string): Promise<Page[]> {
  const pages = await Promise.all(
    Array.from({ length: TABS }, async () => (await browser.newContext()).newPage()),
  )
  await Promise.all(pages.map((p) => p.goto(`${url}?debug`)))
  return pages
}

/** Resolves when every tab has a direct link to every other one. */
async function waitForMesh(pages: Page[]): Promise<void> {
  await Promise.all(
    pages.map((p) =>
      p.waitForFunction(
        (n) => {
          const t = globalThis.tabswarm
          if (!t) return false
          const direct = new Set(
            t.network.node
              .getConnections()
              .filter((c) => c.limits == null && c.remoteAddr.toString().includes('/webrtc'))
              .map((c) => c.remotePeer.toString()),
          )
          return direct.size >= n
        },
        TABS - 1,
        { timeout: 60_000, polling: 100 },
      ),
    ),
  )
}

async function measureLoad(browser: Browser, stack: Stack) {
  const firstDirect: number[] = []
  const relay: number[] = []
  for (let run = 0; run < LOAD_RUNS; run++) {
    const pages = await openTabs(browser, stack.url)
    await waitForMesh(pages)
    for (const p of pages) {
      const marks = await p.evaluate(() => ({
        relay: performance.getEntriesByName('tabswarm:relay-connected')[0]?.startTime ?? NaN,
        direct: performance.getEntriesByName('tabswarm:first-direct-peer')[0]?.startTime ?? NaN,
      }))
      relay.push(marks.relay)
      firstDirect.push(marks.direct)
    }
    await Promise.all(pages.map((p) => p.context().close()))
  }
  return { firstDirect, relay }
}

/** Every tab subscribes to the bench topic and records (sender, one-way latency, bytes) of what it gets. */
async function subscribeAll(pages: Page[]): Promise<void> {
  await Promise.all(
    pages.map((p) =>
      p.evaluate((topic) => {
        const w = globalThis as unknown as { benchLog: [number, number, number][] }
        w.benchLog = []
        const pubsub = globalThis.tabswarm!.network.node.services.pubsub
        pubsub.subscribe(topic)
        pubsub.addEventListener('message', (e) => {
          if (e.detail.topic !== topic) return
          const view = new DataView(e.detail.data.buffer, e.detail.data.byteOffset)
          const sentAt = view.getFloat64(0)
          w.benchLog.push([
            view.getUint8(8),
            performance.timeOrigin + performance.now() - sentAt,
            e.detail.data.byteLength,
          ])
        })
      }, BENCH_TOPIC),
    ),
  )
  await Promise.all(
    pages.map((p) =>
      p.waitForFunction(
        ([topic, n]) =>
          globalThis.tabswarm!.network.node.services.pubsub.getSubscribers(topic as string).length >=
          (n as number),
        [BENCH_TOPIC, TABS - 1] as const,
        { timeout: 30_000 },
      ),
    ),
  )
}

const drainLogs = (pages: Page[]) =>
  Promise.all(
    pages.map((p) =>
      p.evaluate(() => {
        const w = globalThis as unknown as { benchLog: [number, number, number][] }
        const log = w.benchLog
        w.benchLog = []
        return log
      }),
    ),
  )

async function measureLatency(pages: Page[], size: number): Promise<number[]> {
  await drainLogs(pages)
  for (let i = 0; i < pages.length; i++) {
    await pages[i]!.evaluate(
      async ([topic, size, count, spacing, index]) => {
        const pubsub = globalThis.tabswarm!.network.node.services.pubsub
        for (let k = 0; k < count; k++) {
          const data = new Uint8Array(size)
          crypto.getRandomValues(data.subarray(16, Math.min(size, 16 + 65536)))
          const view = new DataView(data.buffer)
          view.setFloat64(0, performance.timeOrigin + performance.now())
          view.setUint8(8, index)
          await pubsub.publish(topic, data)
          await new Promise((r) => setTimeout(r, spacing))
        }
      },
      [BENCH_TOPIC, size, MESSAGES_PER_TAB, SPACING_MS, i] as const,
    )
  }
  await new Promise((r) => setTimeout(r, 1_000))
  return (await drainLogs(pages)).flat().map(([, ms]) => ms)
}

/** Baseline for latency: libp2p ping round trips over the same direct links, halved. */
async function measurePingOneWay(pages: Page[]): Promise<number[]> {
  const all = await Promise.all(
    pages.map((p) =>
      p.evaluate(async () => {
        const node = globalThis.tabswarm!.network.node
        const out: number[] = []
        for (const c of node.getConnections()) {
          if (c.limits != null || !c.remoteAddr.toString().includes('/webrtc')) continue
          for (let k = 0; k < 10; k++) out.push((await node.services.ping.ping(c.remotePeer)) / 2)
        }
        return out
      }),
    ),
  )
  return all.flat()
}

/** Gossip fan-out: tab 0 publishes FANOUT_BYTES; MiB/s per receiver from the first send to its last receipt. */
async function measureFanout(pages: Page[]): Promise<number[]> {
  await drainLogs(pages)
  const started = await pages[0]!.evaluate(
    async ([topic, total, chunk]) => {
      const pubsub = globalThis.tabswarm!.network.node.services.pubsub
      const t0 = performance.timeOrigin + performance.now()
      for (let sent = 0; sent < total; sent += chunk) {
        const data = new Uint8Array(chunk)
        new DataView(data.buffer).setFloat64(0, performance.timeOrigin + performance.now())
        await pubsub.publish(topic, data)
      }
      return t0
    },
    [BENCH_TOPIC, FANOUT_BYTES, CHUNK] as const,
  )
  const expected = FANOUT_BYTES / CHUNK
  const rates: number[] = []
  for (const p of pages.slice(1)) {
    await p.waitForFunction(
      (n) => (globalThis as unknown as { benchLog: unknown[] }).benchLog.length >= n,
      expected,
      {
        timeout: 120_000,
      },
    )
    const lastAt = await p.evaluate(() => performance.timeOrigin + performance.now())
    const log = await p.evaluate(
      () => (globalThis as unknown as { benchLog: [number, number, number][] }).benchLog,
    )
    const bytes = log.reduce((s, [, , b]) => s + b, 0)
    rates.push(bytes / 2 ** 20 / ((lastAt - started) / 1000))
  }
  return rates
}

/** Baseline for fan-out: a raw libp2p stream from tab 0 to tab 1 over their direct WebRTC link. */
async function measureRawStream(pages: Page[]): Promise<number> {
  const target = await pages[1]!.evaluate(async (protocol) => {
    const node = globalThis.tabswarm!.network.node
    const w = globalThis as unknown as { sink: { bytes: number; first: number; last: number } }
    w.sink = { bytes: 0, first: 0, last: 0 }
    await node.handle(protocol, (stream) => {
      stream.addEventListener('message', (e) => {
        const now = performance.now()
        if (w.sink.first === 0) w.sink.first = now
        w.sink.bytes += e.data.byteLength
        w.sink.last = now
      })
    })
    return node.peerId.toString()
  }, SINK_PROTOCOL)
  await pages[0]!.evaluate(
    async ([protocol, peer, total, chunk]) => {
      const node = globalThis.tabswarm!.network.node
      const conn = node.getConnections().find((c) => c.remotePeer.toString() === peer && c.limits == null)!
      const stream = await conn.newStream(protocol as string)
      const data = new Uint8Array(chunk as number)
      for (let sent = 0; sent < (total as number); sent += chunk as number) {
        if (!stream.send(data)) await stream.onDrain()
      }
      await stream.close()
    },
    [SINK_PROTOCOL, target, FANOUT_BYTES, CHUNK] as const,
  )
  await pages[1]!.waitForFunction(
    (total) => (globalThis as unknown as { sink: { bytes: number } }).sink.bytes >= total,
    FANOUT_BYTES,
    {
      timeout: 60_000,
    },
  )
  const sink = await pages[1]!.evaluate(
    () => (globalThis as unknown as { sink: { bytes: number; first: number; last: number } }).sink,
  )
  return sink.bytes / 2 ** 20 / ((sink.last - sink.first) / 1000)
}

async function main(): Promise<void> {
  const deadline = setTimeout(() => {
    console.error('swarm-net: no result within 8 minutes, giving up')
    process.exit(1)
  }, 8 * 60_000)
  const stack = await startStack(PORTS)
  const browser = await launchBrowser()
  try {
    const load = await measureLoad(browser, stack)
    const pages = await openTabs(browser, stack.url)
    await waitForMesh(pages)
    await subscribeAll(pages)
    const ping = await measurePingOneWay(pages)
    const latency = Object.fromEntries(
      await SIZES.reduce<Promise<[number, number[]][]>>(
        async (acc, size) => [...(await acc), [size, await measureLatency(pages, size)]],
        Promise.resolve([]),
      ),
    ) as Record<number, number[]>
    const rawMiBs = await measureRawStream(pages)
    const fanout = await measureFanout(pages)

    const pingP50 = percentile(ping, 50)
    const relayP50 = percentile(load.relay, 50)
    const fanoutP50 = percentile(fanout, 50)
    const result = {
      machine: '2-core CI box, loopback, Chromium (SwiftShader), one browser, separate contexts',
      tabs: TABS,
      loadToFirstDirectMs: {
        p50: percentile(load.firstDirect, 50),
        p95: percentile(load.firstDirect, 95),
        samples: load.firstDirect,
      },
      loadToRelayMs: { p50: relayP50, p95: percentile(load.relay, 95) },
      pingOneWayMs: { p50: pingP50, p95: percentile(ping, 95), samples: ping.length },
      gossipLatencyMs: Object.fromEntries(
        SIZES.map((s) => [
          s,
          { p50: percentile(latency[s]!, 50), p95: percentile(latency[s]!, 95), samples: latency[s]!.length },
        ]),
      ),
      fanoutMiBsPerReceiver: { p50: fanoutP50, min: Math.min(...fanout), all: fanout },
      rawStreamMiBs: rawMiBs,
    }
    await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true })
    await writeFile(resultsFile, JSON.stringify(result, null, 2))
    const rows: Row[] = [
      {
        metric: 'page load → first direct WebRTC p50 (ms)',
        value: fmt(result.loadToFirstDirectMs.p50, 0),
        baseline: `relay ${fmt(relayP50, 0)}`,
        ratio: fmt(result.loadToFirstDirectMs.p50 / relayP50, 2),
      },
      {
        metric: 'page load → first direct WebRTC p95 (ms)',
        value: fmt(result.loadToFirstDirectMs.p95, 0),
        baseline: `relay ${fmt(result.loadToRelayMs.p95, 0)}`,
        ratio: fmt(result.loadToFirstDirectMs.p95 / result.loadToRelayMs.p95, 2),
      },
      ...SIZES.flatMap((s) => [
        {
          metric: `gossip latency ${s} B p50 (ms)`,
          value: fmt(result.gossipLatencyMs[s]!.p50, 2),
          baseline: `ping/2 ${fmt(pingP50, 2)}`,
          ratio: fmt(result.gossipLatencyMs[s]!.p50 / pingP50, 2),
        },
        {
          metric: `gossip latency ${s} B p95 (ms)`,
          value: fmt(result.gossipLatencyMs[s]!.p95, 2),
          baseline: `ping/2 ${fmt(result.pingOneWayMs.p95, 2)}`,
          ratio: fmt(result.gossipLatencyMs[s]!.p95 / result.pingOneWayMs.p95, 2),
        },
      ]),
      {
        metric: 'gossip fan-out to 4, per receiver p50 (MiB/s)',
        value: fmt(fanoutP50, 2),
        baseline: `raw stream ${fmt(rawMiBs, 2)}`,
        ratio: fmt(fanoutP50 / rawMiBs, 2),
      },
    ]
    printTable(`swarm-net: ${TABS} tabs → ${resultsFile}`, rows)
  } finally {
    clearTimeout(deadline)
    await browser.close()
    await stack.stop()
  }
}

await main()
