// Throughput of the gossip validator, the hot path every heard message takes: per message kind, a set
// of distinct signed-looking messages (one per sender, so neither the replay cache nor the rate limits
// refuse them) goes through `validate()` and, apart, through the shape checks alone (envelope decode
// and the kind's body check). Times are ratios against JSON.parse of the same bytes in the same
// process, so runs on a busy shared machine compare. Medians and the 10th–90th percentile over runs.
//   node --import ./src/polyfills/register.js bench/gossip-validator.ts [--runs 15]
import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { generateReasoningTask } from '../src/core/tasks/generate-reasoning-task.ts'
import { PROTOCOL_VERSION, decodeEnvelope, encodeEnvelope } from '../src/core/protocol/envelope.ts'
import { createGossipValidator, type KnownKind } from '../src/core/protocol/gossip-validator.ts'
import { makePresenceBody } from '../src/core/protocol/presence.ts'
import { makeReceiptsBody, validateReceiptsBody } from '../src/core/protocol/receipts-message.ts'
import { validateRolloutsBody, type RolloutGroup } from '../src/core/protocol/rollouts.ts'
import { refOfTask } from '../src/core/protocol/task-ref.ts'
import { topicFor } from '../src/core/protocol/topics.ts'
import { validatePresenceBody } from '../src/core/protocol/presence.ts'
import { demoGeneration } from '../src/host/demo/demo-receipts.ts'
import { kernelsHashFromDisk } from '../src/compute/proof/kernels-hash-node.ts'
import { fmt, percentile, positiveInt, printTable, writeResults, type Row } from './stats.ts'

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '15' } } })
const RUNS = positiveInt(args.runs, 'runs')
/** messages per case; the largest rollouts case takes ~15 ms a message, so it has a tenth of them */
const MESSAGES = 2_000
const SWARM = 'ab'.repeat(32)
const T0 = 1_800_000_000_000
const G = 2
const resultsFile = fileURLToPath(new URL('./results/gossip-validator.json', import.meta.url))

const senderId = (i: number): string => `12D3KooW${String(i).padStart(44, '0')}`

const key = await generateKeyPair('Ed25519')
const receiptSender = peerIdFromPrivateKey(key).toString()
const { receipt } = await demoGeneration(key, kernelsHashFromDisk())

/** A group of G completions of `tokens` token ids each (the default swarm samples 48 new tokens). */
function group(seed: number, tokens: number): RolloutGroup {
  const task = generateReasoningTask('arithmetic', 1, seed)
  const ids = Array.from({ length: tokens }, (_, i) => (i * 7919) % 150_000)
  return {
    // distinct per seed (a small task space repeats tasks, and a message may not hold one twice)
    taskId: seed.toString(16).padStart(64, '0'),
    task: refOfTask(task),
    completions: Array.from({ length: G }, (_, i) => ({
      text: `<answer>${i}</answer>`.padEnd(tokens, ' '),
      tokenIds: ids,
    })),
    rewards: Array.from({ length: G }, (_, i) => i * 0.5),
    policyVersion: 7,
  }
}

interface Case {
  name: string
  kind: KnownKind
  body: (i: number) => unknown
  /** the signer of message i */
  from: (i: number) => string
  check: (body: unknown, from: string) => unknown
  /** how many distinct messages (default MESSAGES) */
  count?: number
  /** whether the validator must accept these messages (checked before timing) */
  accepted: boolean
}

const presenceBody = makePresenceBody({
  name: 'Quick Brown Fox',
  appVersion: '0.1.0',
  capabilities: {
    webgpu: {
      vendor: 'nvidia',
      architecture: 'ampere',
      device: '',
      description: 'NVIDIA RTX 3080',
      isFallbackAdapter: false,
    },
    cores: 8,
    memoryGb: 8,
  },
})
const CASES: Case[] = [
  {
    name: 'presence',
    kind: 'presence',
    body: () => presenceBody,
    from: senderId,
    check: validatePresenceBody,
    accepted: true,
  },
  {
    name: 'rollouts, 2 groups × 48 tokens',
    kind: 'rollouts',
    body: (i) => ({ groups: [group(i, 48), group(i + 1_000_000, 48)] }),
    from: senderId,
    check: (body) => validateRolloutsBody(body, G),
    accepted: true,
  },
  {
    name: 'rollouts, 16 groups × 1,024 tokens',
    count: MESSAGES / 10,
    kind: 'rollouts',
    body: (i) => ({ groups: Array.from({ length: 16 }, (_, g) => group(i * 16 + g, 1024)) }),
    from: senderId,
    check: (body) => validateRolloutsBody(body, G),
    accepted: true,
  },
  {
    name: 'rollouts refused (last reward a string)',
    kind: 'rollouts',
    body: (i) => ({ groups: [group(i, 48), { ...group(i + 1_000_000, 48), rewards: [0, 'x'] }] }),
    from: senderId,
    check: (body) => validateRolloutsBody(body, G),
    accepted: false,
  },
  {
    name: 'receipts (receipt only)',
    kind: 'receipts',
    body: () => makeReceiptsBody(receipt, undefined),
    // a receipt must come from its own peer: every message has the one sender, a distinct timestamp
    from: () => receiptSender,
    check: validateReceiptsBody,
    accepted: true,
  },
]

function encode(c: Case): Uint8Array[] {
  return Array.from({ length: c.count ?? MESSAGES }, (_, i) =>
    encodeEnvelope({
      v: PROTOCOL_VERSION,
      swarmId: SWARM,
      round: 3,
      from: c.from(i),
      ts: T0 + i,
      kind: c.kind,
      body: c.body(i),
    }),
  )
}

/** ms for one pass of `fn` over every message. */
function time(messages: readonly Uint8Array[], fn: (m: Uint8Array, i: number) => unknown): number {
  const start = performance.now()
  for (let i = 0; i < messages.length; i++) fn(messages[i]!, i)
  return performance.now() - start
}

const decoder = new TextDecoder()
const baseline = (m: Uint8Array) => JSON.parse(decoder.decode(m))

const rows: Row[] = []
const results: Record<string, unknown>[] = []
for (const c of CASES) {
  const messages = encode(c)
  const topic = topicFor(SWARM, c.kind)
  const passes = { validate: [] as number[], shape: [] as number[], base: [] as number[] }
  // unlimited rates and a clock that keeps every message fresh: the bench measures checking, not refusing
  const freshValidator = () =>
    createGossipValidator({
      swarmId: SWARM,
      now: () => T0 + MESSAGES,
      maxAgeMs: 10 * MESSAGES,
      groupSize: G,
      rate: { [c.kind]: { perSecond: 1e9, burst: 1e9 } },
    })
  const sanity = freshValidator()
  messages.forEach((m, i) => {
    const result = sanity.validate(topic, m, c.from(i))
    if (result.ok !== c.accepted) throw new Error(`${c.name}: message ${i} ${JSON.stringify(result)}`)
  })
  for (let run = 0; run < RUNS + 2; run++) {
    const validator = freshValidator()
    const base = time(messages, baseline)
    const validate = time(messages, (m, i) => validator.validate(topic, m, c.from(i)))
    const shape = time(messages, (m, i) => {
      const decoded = decodeEnvelope(m)
      if (!decoded.ok) throw new Error(decoded.detail)
      return c.check(decoded.envelope.body, c.from(i))
    })
    if (run < 2) continue // warm-up
    passes.base.push(base)
    passes.validate.push(validate)
    passes.shape.push(shape)
  }
  const ratio = (xs: number[]) => xs.map((x, i) => x / passes.base[i]!)
  const perSecond = (ms: number) => (messages.length / ms) * 1000
  const summary = {
    case: c.name,
    messages: messages.length,
    bytes: messages[0]!.byteLength,
    validatePerSecond: perSecond(percentile(passes.validate, 50)),
    shapePerSecond: perSecond(percentile(passes.shape, 50)),
    validateVsParse: [10, 50, 90].map((p) => percentile(ratio(passes.validate), p)),
    shapeVsParse: [10, 50, 90].map((p) => percentile(ratio(passes.shape), p)),
  }
  results.push(summary)
  const interval = (r: number[]) => `${fmt(r[1]!, 2)}× [${fmt(r[0]!, 2)}–${fmt(r[2]!, 2)}]`
  rows.push(
    {
      metric: `${c.name}: validate() msg/s`,
      value: fmt(summary.validatePerSecond, 0),
      baseline: 'JSON.parse',
      ratio: interval(summary.validateVsParse),
    },
    {
      metric: `${c.name}: decode + body check msg/s`,
      value: fmt(summary.shapePerSecond, 0),
      baseline: 'JSON.parse',
      ratio: interval(summary.shapeVsParse),
    },
  )
}
printTable(`gossip validator throughput (${RUNS} runs; ratio = time / JSON.parse time)`, rows)
await writeResults(resultsFile, { runs: RUNS, results })
