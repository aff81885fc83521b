// How much relay memory one connected tab costs. Starts a relay in a child process (so only the relay is
// measured), attaches PEERS Node libp2p peers that each hold a circuit reservation (what a tab does with
// the relay, minus WebRTC), and compares the relay's RSS and V8 heap before and after, each measured
// after a full garbage collection. Loopback only; stops by itself.
//   node --import ./src/polyfills/register.js bench/relay-memory.ts
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { RelayMetrics } from '../src/node/relay/relay-metrics.ts'
import { spawnReservingPeers } from '../src/node/relay/reserving-peers.ts'
import type { RelayChildReply } from './relay-memory-child.ts'

/** Enough peers that per-peer cost dominates noise; few enough for a 2-core CI box. */
const PEERS = 50
/** Free of the ports the tests use (19xxx) and of the dev defaults (9090, 5173). */
const RELAY_PORT = 18190
/** Lets identify, gossipsub's first heartbeats and the discovery subscriptions settle before measuring. */
const SETTLE_MS = 3_000
/** The whole run, in case something hangs. */
const DEADLINE_MS = 180_000

const resultsFile = fileURLToPath(new URL('./results/relay-memory.json', import.meta.url))
const tsRegister = fileURLToPath(new URL('../src/polyfills/register.js', import.meta.url))
const childEntry = fileURLToPath(new URL('./relay-memory-child.ts', import.meta.url))

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

function nextReply(child: ChildProcess): Promise<RelayChildReply> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`relay child exited (code ${code})`))
    child.once('message', (m: RelayChildReply) => {
      child.off('exit', onExit)
      if (m.type === 'error') reject(new Error(`relay child: ${m.message}`))
      else resolve(m)
    })
    child.once('exit', onExit)
  })
}

async function measure(child: ChildProcess): Promise<RelayMetrics> {
  child.send('measure')
  const reply = await nextReply(child)
  if (reply.type !== 'measured') throw new Error(`unexpected reply ${reply.type}`)
  return reply.metrics
}

async function main(): Promise<void> {
  const relay = fork(childEntry, [String(RELAY_PORT)], { execArgv: ['--expose-gc', '--import', tsRegister] })
  const deadline = setTimeout(() => {
    console.error(`relay-memory: no result within ${DEADLINE_MS / 1000} s, giving up`)
    relay.kill()
    process.exit(1)
  }, DEADLINE_MS)
  try {
    const ready = await nextReply(relay)
    if (ready.type !== 'ready') throw new Error(`unexpected reply ${ready.type}`)
    await sleep(SETTLE_MS)
    const idle = await measure(relay)

    const joinStart = performance.now()
    const peers = await spawnReservingPeers(ready.multiaddr, PEERS)
    const joinMs = performance.now() - joinStart
    await sleep(SETTLE_MS)
    const loaded = await measure(relay)
    await peers.stop()
    await sleep(SETTLE_MS)
    const released = await measure(relay)

    if (loaded.connectedPeers !== PEERS || loaded.reservations !== PEERS) {
      throw new Error(
        `expected ${PEERS} peers with reservations, relay saw ${loaded.connectedPeers}/${loaded.reservations}`,
      )
    }
    const perPeer = {
      rssBytes: Math.round((loaded.memory.rss - idle.memory.rss) / PEERS),
      heapUsedBytes: Math.round((loaded.memory.heapUsed - idle.memory.heapUsed) / PEERS),
    }
    const result = {
      bench: 'relay-memory',
      date: new Date().toISOString(),
      node: process.version,
      peers: PEERS,
      joinMs: Math.round(joinMs),
      relay: {
        idle: idle.memory,
        loaded: {
          ...loaded.memory,
          connectedPeers: loaded.connectedPeers,
          reservations: loaded.reservations,
        },
        afterPeersLeft: {
          ...released.memory,
          connectedPeers: released.connectedPeers,
          reservations: released.reservations,
        },
      },
      perPeer,
    }
    await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true })
    await writeFile(resultsFile, JSON.stringify(result, null, 2) + '\n')

    const mib = (b: number): string => (b / 2 ** 20).toFixed(1)
    const kib = (b: number): string => (b / 1024).toFixed(1)
    console.table({
      idle: { 'rss MiB': mib(idle.memory.rss), 'heapUsed MiB': mib(idle.memory.heapUsed), peers: 0 },
      [`${PEERS} peers reserved`]: {
        'rss MiB': mib(loaded.memory.rss),
        'heapUsed MiB': mib(loaded.memory.heapUsed),
        peers: loaded.connectedPeers,
      },
      'peers left': {
        'rss MiB': mib(released.memory.rss),
        'heapUsed MiB': mib(released.memory.heapUsed),
        peers: released.connectedPeers,
      },
    })
    console.log(
      `per connected peer: rss ${kib(perPeer.rssBytes)} KiB, heapUsed ${kib(perPeer.heapUsedBytes)} KiB; ` +
        `${PEERS} peers connected and reserved in ${Math.round(joinMs)} ms → ${resultsFile}`,
    )
  } finally {
    clearTimeout(deadline)
    if (relay.connected) relay.send('stop')
  }
}

main().catch((err: Error) => {
  console.error(`relay-memory failed: ${err.message}`)
  process.exit(1)
})
