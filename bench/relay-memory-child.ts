// Child process of bench/relay-memory.ts: `relay-memory-child.ts <port>`, run with --expose-gc. Starts a
// relay and, on each 'measure' message, collects garbage and answers with its memory and metrics.
import { createRelay } from '../src/node/relay/create-relay.ts'
import type { RelayMetrics } from '../src/node/relay/relay-metrics.ts'

export type RelayChildReply =
  | { type: 'ready'; multiaddr: string }
  | { type: 'measured'; metrics: RelayMetrics }
  | { type: 'error'; message: string }

const reply = (message: RelayChildReply): Promise<void> =>
  new Promise((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()))

/** Two full collections: the first can leave garbage that only becomes collectable after finalizers run. */
function collectGarbage(): void {
  if (typeof globalThis.gc !== 'function') throw new Error('run this child with --expose-gc')
  globalThis.gc()
  globalThis.gc()
}

async function main(): Promise<void> {
  const port = Number(process.argv[2])
  const relay = await createRelay({ port, httpPort: 0 })
  process.on('disconnect', () => void relay.close().then(() => process.exit(0)))
  process.on('message', (message: 'measure' | 'stop') => {
    if (message === 'stop') return void relay.close().then(() => process.exit(0))
    collectGarbage()
    void reply({ type: 'measured', metrics: relay.metrics() })
  })
  await reply({ type: 'ready', multiaddr: relay.multiaddrs[0]! })
}

main().catch(async (err: Error) => {
  await reply({ type: 'error', message: err.message })
  process.exit(1)
})
