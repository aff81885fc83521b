// How much a tab's memory grows with the number of distinct peers it hears from (strangers): messages
// from 1,000 and then 10,000 distinct senders go through the real gossip validator, gossip gate,
// network stats and dial backoff, and the V8 heap is compared after a full garbage collection at each
// count. Every per-peer record is bounded, so the growth from 1,000 to 10,000 must stay within
// MAX_GROWTH_BYTES (issue 20, item 10). Each sender sends one valid presence, one message refused as
// its fault and one stale one (ignored), and fails one dial, all within the replay window.
//   node --expose-gc --import ./src/polyfills/register.js bench/stranger-memory.ts
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { createDialBackoff } from '../src/host/net/dial-backoff.ts'
import { createGossipGate } from '../src/host/net/gossip-gate.ts'
import { createNetStats } from '../src/host/net/net-stats.ts'
import { PROTOCOL_VERSION, encodeEnvelope } from '../src/core/protocol/envelope.ts'
import { createGossipValidator } from '../src/core/protocol/gossip-validator.ts'
import { makePresenceBody } from '../src/core/protocol/presence.ts'
import { topicFor } from '../src/core/protocol/topics.ts'

const FEW = 1_000
const MANY = 10_000
const MAX_GROWTH_BYTES = 5 * 1024 * 1024
const SWARM = 'ab'.repeat(32)
const TOPIC = topicFor(SWARM, 'presence')
const T0 = 1_800_000_000_000

const resultsFile = fileURLToPath(new URL('./results/stranger-memory.json', import.meta.url))
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc: the heap is measured after a full garbage collection')

let t = T0
const now = () => t
const validator = createGossipValidator({ swarmId: SWARM, now })
const stats = createNetStats()
const backoff = createDialBackoff()
const gate = createGossipGate({
  check: (topic, data, signer) => validator.validate(topic, data, signer),
  stats,
  hangUp: () => {},
  now,
})
const garbage = new TextEncoder().encode('{"not":"an envelope"}')
// An Ed25519 peer id is 52 characters; these have that length and are all distinct.
const senderId = (i: number): string => `12D3KooW${String(i).padStart(44, '0')}`

function hear(from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const id = senderId(i)
    const presence = (ts: number) =>
      encodeEnvelope({
        v: PROTOCOL_VERSION,
        swarmId: SWARM,
        round: 3,
        from: id,
        ts,
        kind: 'presence',
        body: makePresenceBody({
          name: `stranger ${i}`,
          appVersion: '0.1.0',
          capabilities: { webgpu: null, cores: 4, memoryGb: 8 },
          leaving: false,
        }),
      })
    t += 1
    if (gate.judge(TOPIC, presence(t), id, id) !== 'accept') throw new Error(`stranger ${i} was refused`)
    gate.judge(TOPIC, garbage, id, id)
    gate.judge(TOPIC, presence(t - 120_000), id, id)
    stats.sent([id], 100)
    backoff.failed(id, t)
    stats.sample(t) // the once-a-second copy into the UI store, kept short-lived here
  }
}

const heapAfterGc = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

hear(0, FEW)
const few = heapAfterGc()
hear(FEW, MANY)
const many = heapAfterGc()
const growth = many - few
const sizes = {
  ...validator.cacheSizes(),
  backoff: backoff.size,
  perPeer: Object.keys(stats.sample(t).stats.perPeer).length,
}
const result = {
  senders: { few: FEW, many: MANY },
  heapBytes: { few, many, growth },
  limitBytes: MAX_GROWTH_BYTES,
  sizes,
  node: process.version,
  at: new Date().toISOString(),
}
console.log(JSON.stringify(result, null, 2))
await mkdir(new URL('./results/', import.meta.url), { recursive: true })
await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`)
if (growth > MAX_GROWTH_BYTES) {
  console.error(
    `heap grew ${(growth / 2 ** 20).toFixed(2)} MiB from ${FEW} to ${MANY} strangers, above 5 MiB`,
  )
  process.exitCode = 1
}
