// Child process of spawnHostilePeer (hostile-peer.ts): a Node libp2p peer that joins a swarm the way a
// tab does (WebSockets to the relay, pubsub discovery adverts) but listens on a WebSockets port of its
// own so the tabs dial it directly, and then publishes hostile gossip on the swarm's presence topic.
// It is told what to do over IPC and exits when told to stop or when the parent goes away.
import { createLibp2p } from 'libp2p'
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2'
import { gossipsub, type GossipSub } from '@libp2p/gossipsub'
import { identify } from '@libp2p/identify'
import { noise } from '@libp2p/noise'
import { ping } from '@libp2p/ping'
import { pubsubPeerDiscovery } from '@libp2p/pubsub-peer-discovery'
import { webSockets } from '@libp2p/websockets'
import { yamux } from '@libp2p/yamux'
import { multiaddr } from '@multiformats/multiaddr'
import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { readFileSync } from 'node:fs'
import { animalName } from '../src/core/identity/animal.ts'
import { parseTokenizerJson } from '../src/compute/model/tokenizer/bpe-tokenizer.ts'
import type { Tokenizer } from '../src/compute/model/tokenizer/tokenizer.ts'
import { encodeEnvelope, PROTOCOL_VERSION } from '../src/core/protocol/envelope.ts'
import { roundAt, roundTimes } from '../src/core/learning/round-clock.ts'
import { freeSlots, roundTasks, type RoundDraw } from '../src/core/learning/round-tasks.ts'
import type { RolloutGroup } from '../src/core/protocol/rollouts.ts'
import { refOfTask, taskFromRef } from '../src/core/protocol/task-ref.ts'
import { DEFAULT_MAX_AGE_MS } from '../src/core/protocol/gossip-validator.ts'
import { MAX_MEMORY_GB } from '../src/core/protocol/presence.ts'
import { MAX_MESSAGE_BYTES, topicFor } from '../src/core/protocol/topics.ts'
import {
  ATTACK_CLASSES,
  attackOrder,
  type AttackClass,
  type AttackCounts,
  type ChildReply,
  type ForgeOptions,
  type ParentCommand,
} from './hostile-peer.ts'
import {
  classFloodMessages,
  FRESH_PER_ROUND,
  REFUSED_AS,
  ROUND_ATTACK_CLASSES,
  roundAttackMessages,
  type FloodReport,
  type RoundAttackClass,
  type RoundAttackOptions,
  type RoundAttackReport,
} from './round-attack.ts'
import { sendTo, signedMessage } from './signed-gossip.ts'

/** Adverts every second, as tabs do, so the tabs find this peer through the relay at once. */
const DISCOVERY_INTERVAL_MS = 1_000

/** gossipsub's seen-cache TTL (`GossipsubSeenTTL`, 2 minutes): the replayed message is older than this. */
const GOSSIPSUB_SEEN_TTL_MS = 2 * 60_000

/** The oversized class: far above the presence cap (2 KiB), far below gossipsub's 4 MiB frame limit. */
const OVERSIZED_BYTES = 100 * 1024

type Node = Awaited<ReturnType<typeof startNode>>

/** Resolves once the message is handed to the IPC channel, so exiting afterwards does not lose it. */
const reply = (message: ChildReply): Promise<void> =>
  new Promise((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()))

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function startNode(listenPort: number, privateKey: PrivateKey) {
  return createLibp2p({
    privateKey,
    addresses: { listen: [`/ip4/127.0.0.1/tcp/${listenPort}/ws`] },
    transports: [webSockets(), circuitRelayTransport()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    peerDiscovery: [pubsubPeerDiscovery({ interval: DISCOVERY_INTERVAL_MS })],
    services: {
      identify: identify(),
      ping: ping(),
      pubsub: gossipsub({
        // StrictSign is the default: every message below is validly signed by this peer's key.
        allowPublishToZeroTopicPeers: true,
        // The tabs and the relay share 127.0.0.1; colocation scoring would stop us publishing to them.
        scoreParams: { IPColocationFactorWeight: 0 },
      }),
    },
  })
}

/** What the attacker knows: itself, the swarm, and the tabs it can see (to impersonate them). */
interface AttackContext {
  self: string
  selfName: string
  swarmId: string
  victims: string[]
}

const capabilities = { webgpu: null, cores: 4, memoryGb: null }

/** A presence body that passes the schema and names this peer correctly: a genuine presence. */
const genuineBody = (ctx: AttackContext) => ({
  name: ctx.selfName,
  appVersion: '0.0.0-hostile',
  capabilities,
  leaving: false,
})

/**
 * Body defects for the schema-invalid class, each one a thing the presence schema refuses. Each message
 * is otherwise perfect (signed, right swarm and kind, fresh timestamp, `from` = signer), so it gets all
 * the way to the body check — and on the way it spends a token of the sender's rate limit.
 */
const BODY_DEFECTS: ((ctx: AttackContext, i: number) => unknown)[] = [
  (ctx) => ({ ...genuineBody(ctx), capabilities: { ...capabilities, cores: 0 } }),
  (ctx) => ({ ...genuineBody(ctx), leaving: 'no' }),
  (ctx) => ({ ...genuineBody(ctx), admin: true }),
  // A real tab's name: the schema holds, but a peer may only announce its own animal name.
  (ctx, i) => ({ ...genuineBody(ctx), name: animalName(ctx.victims[i % ctx.victims.length] ?? ctx.self) }),
  (ctx) => ({ name: ctx.selfName, appVersion: '0.0.0-hostile', leaving: false }),
  (ctx) => ({ ...genuineBody(ctx), name: '' }),
]

interface EnvelopeFields {
  v?: number
  from?: string
  ts?: number
  body: unknown
}

function envelope(ctx: AttackContext, f: EnvelopeFields): Uint8Array {
  // encodeEnvelope takes the version we speak; an envelope from the future is written by hand.
  const e = {
    v: PROTOCOL_VERSION as typeof PROTOCOL_VERSION,
    swarmId: ctx.swarmId,
    round: 0,
    from: f.from ?? ctx.self,
    ts: f.ts ?? Date.now(),
    kind: 'presence' as const,
    body: f.body,
  }
  if (f.v === undefined) return encodeEnvelope(e)
  return new TextEncoder().encode(JSON.stringify({ ...e, v: f.v }))
}

/** The bytes of the `i`-th message of class `cls`, made just before it is sent. */
function makeMessage(
  ctx: AttackContext,
  cls: AttackClass,
  i: number,
  now: number,
  stale: Uint8Array,
): Uint8Array {
  switch (cls) {
    case 'schema-invalid':
      return envelope(ctx, { body: BODY_DEFECTS[i % BODY_DEFECTS.length]!(ctx, i) })
    case 'sender-mismatch': {
      // Signed by us, claiming to be one of the tabs, with that tab's own name: a forged presence.
      const victim = ctx.victims[i % ctx.victims.length] ?? ctx.self
      return envelope(ctx, { from: victim, body: { ...genuineBody(ctx), name: animalName(victim) } })
    }
    case 'oversized': {
      const pad = 'x'.repeat(OVERSIZED_BYTES)
      const data = envelope(ctx, { body: { ...genuineBody(ctx), appVersion: pad } })
      if (data.byteLength <= MAX_MESSAGE_BYTES.presence) throw new Error('oversized message is not oversized')
      return data
    }
    case 'unknown-version':
      return envelope(ctx, { v: PROTOCOL_VERSION + 1, body: genuineBody(ctx) })
    case 'stale-replay':
      // The same recorded bytes every time; gossipsub gives each publish a fresh seqno, so the message id
      // (from + seqno) is new to every seen cache while the envelope inside is long stale.
      return stale
    case 'flood':
      // Our own presence, our own name, a timestamp of its own (so no two are the same message) — and a
      // memory size the schema refuses. A flood of *genuine* presences would rightly get its burst (and
      // then one a second) accepted, and the attacker would show up under its own name; this one is
      // refused all the same: by the rate limiter beyond the burst, by the body check within it.
      return envelope(ctx, {
        ts: now,
        body: { ...genuineBody(ctx), capabilities: { ...capabilities, memoryGb: 4 * MAX_MEMORY_GB } },
      })
  }
}

async function waitForSubscribers(
  node: Node,
  topic: string,
  ids: string[],
  timeoutMs: number,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const subscribed = node.services.pubsub.getSubscribers(topic).map(String)
    if (ids.every((id) => subscribed.includes(id))) return subscribed
    if (Date.now() > deadline)
      throw new Error(
        `after ${timeoutMs} ms only ${subscribed.length} of ${ids.length} tabs are subscribed to ${topic}`,
      )
    await sleep(100)
  }
}

interface AttackOptions {
  swarmId: string
  victims: string[]
  total: number
  /** messages sent between two pauses */
  batch: number
  pauseMs: number
}

async function attack(node: Node, o: AttackOptions): Promise<AttackCounts> {
  const pubsub: GossipSub = node.services.pubsub
  const topic = topicFor(o.swarmId, 'presence')
  const self = node.peerId.toString()
  const ctx: AttackContext = { self, selfName: animalName(self), swarmId: o.swarmId, victims: o.victims }
  const recordedAt = Date.now() - GOSSIPSUB_SEEN_TTL_MS - 10_000
  if (Date.now() - recordedAt <= DEFAULT_MAX_AGE_MS) throw new Error('the replayed message is not stale')
  const stale = envelope(ctx, { ts: recordedAt, body: genuineBody(ctx) })
  const counts = Object.fromEntries(ATTACK_CLASSES.map((c) => [c, { sent: 0, delivered: 0 }])) as AttackCounts
  const perClass = Object.fromEntries(ATTACK_CLASSES.map((c) => [c, 0])) as Record<AttackClass, number>
  let lastTs = 0
  const order = attackOrder(o.total)
  for (let n = 0; n < order.length; n++) {
    const cls = order[n]!
    lastTs = Math.max(Date.now(), lastTs + 1)
    const data = makeMessage(ctx, cls, perClass[cls]++, lastTs, stale)
    // Once the tabs block us there is nobody left to publish to; allowPublishToZeroTopicPeers keeps
    // publishing from throwing, and `delivered` counts the publishes that still had a recipient.
    const { recipients } = await pubsub.publish(topic, data)
    counts[cls].sent++
    if (recipients.length > 0) counts[cls].delivered++
    if ((n + 1) % o.batch === 0) await sleep(o.pauseMs)
  }
  return counts
}

/** A wrong answer: the micro model's tasks are arithmetic, whose answers are numbers. */
const WRONG_ANSWER = 'the answer is banana'

/** The forged groups of `round` (FORGERIES, in order), for tasks of our own draw (receivers refuse any
 * other), each with its own task id (the tabs keep one group per sender and task id) and claiming reward
 * 1 for every completion: a forged task id, tokens that are not their text, and a wrong answer with its
 * true tokens (refused for its claimed rewards). The forged id and the wrong answer share a task. */
function forgedGroups(o: ForgeOptions, tokenizer: Tokenizer, self: string, round: number): RolloutGroup[] {
  const honest = { text: WRONG_ANSWER, tokenIds: tokenizer.encode(WRONG_ANSWER) }
  const spec: RoundDraw = {
    swarmId: o.swarmId,
    round,
    peerId: self,
    tasksPerRound: o.tasksPerRound,
    cells: o.cells,
  }
  const mine = o.cells.find((c) => c.family === o.family)!
  const draw = roundTasks(
    spec,
    Array.from({ length: freeSlots(spec) }, () => mine),
  )
  const group = (
    k: number,
    completion: RolloutGroup['completions'][number],
    forgeId = false,
  ): RolloutGroup => {
    const task = taskFromRef(draw[k % draw.length]!)
    return {
      taskId: forgeId ? [...task.id].reverse().join('') : task.id,
      task: refOfTask(task),
      completions: Array.from({ length: o.groupSize }, () => completion),
      rewards: Array.from({ length: o.groupSize }, () => 1),
      policyVersion: 0,
    }
  }
  return [
    group(0, honest, true),
    group(1, { text: 'a text these tokens are not', tokenIds: honest.tokenIds }),
    group(0, honest),
  ]
}

async function forge(node: Node, o: ForgeOptions): Promise<number[]> {
  const tokenizer = parseTokenizerJson(JSON.parse(readFileSync(o.tokenizerPath, 'utf8')))
  const clock = { genesisTime: o.genesisTime, roundLengthMs: o.roundLengthMs, windowFraction: 0 }
  const self = node.peerId.toString()
  const topic = topicFor(o.swarmId, 'rollouts')
  const publish = (round: number, body: unknown) =>
    node.services.pubsub.publish(
      topic,
      encodeEnvelope({
        v: PROTOCOL_VERSION,
        swarmId: o.swarmId,
        round,
        from: self,
        ts: Date.now(),
        kind: 'rollouts',
        body,
      }),
    )
  const done: number[] = []
  for (let round = roundAt(clock, Date.now()) + 1; done.length < o.rounds; round++) {
    await sleep(roundTimes(clock, round).start + o.offsetMs - Date.now())
    const groups = forgedGroups(o, tokenizer, self, round)
    // one completion short of G: the schema refuses it before it reaches a round
    await publish(round, { groups: [{ ...groups[2]!, completions: groups[2]!.completions.slice(1) }] })
    await publish(round, { groups })
    done.push(round)
  }
  return done
}

/** Signs and sends every message of the round attack, round after round; reports what went out. */
async function roundAttack(node: Node, key: PrivateKey, o: RoundAttackOptions): Promise<RoundAttackReport> {
  const tokenizer = parseTokenizerJson(JSON.parse(readFileSync(o.tokenizerPath, 'utf8')))
  const clock = { genesisTime: o.genesisTime, roundLengthMs: o.roundLengthMs, windowFraction: 0 }
  const main = node.peerId.toString()
  const topic = topicFor(o.swarmId, 'rollouts')
  const keys = new Map<string, PrivateKey>([[main, key]])
  const report: RoundAttackReport = {
    main,
    rounds: [],
    identities: Object.fromEntries(
      ROUND_ATTACK_CLASSES.map((c) => [c, [] as string[]]),
    ) as RoundAttackReport['identities'],
    messages: Object.fromEntries(ROUND_ATTACK_CLASSES.map((c) => [c, 0])) as RoundAttackReport['messages'],
    groups: [],
  }
  for (let round = roundAt(clock, Date.now()) + 1; report.rounds.length < o.rounds; round++) {
    // the round's fresh keys are made before it starts, so its messages go out together
    const fresh = await Promise.all(Array.from({ length: FRESH_PER_ROUND }, () => generateKeyPair('Ed25519')))
    const freshIds = fresh.map((k) => peerIdFromPrivateKey(k).toString())
    fresh.forEach((k, i) => keys.set(freshIds[i]!, k))
    await sleep(roundTimes(clock, round).start + o.offsetMs - Date.now())
    const ctx = { ...o, tokenizer, main, fresh: () => freshIds.pop()! }
    const messages = roundAttackMessages(ctx, round, Date.now())
    const signed = await Promise.all(messages.map((m) => signedMessage(keys.get(m.signer)!, topic, m.data)))
    for (const [i, m] of messages.entries()) {
      const delivered = m.to.filter((peer) => sendTo(node.services.pubsub, peer, signed[i]!)).length
      if (delivered === 0) continue
      for (const cls of m.classes) {
        report.messages[cls]++
        if (m.signer !== main && !report.identities[cls].includes(m.signer))
          report.identities[cls].push(m.signer)
      }
      for (const group of m.groups) report.groups.push({ from: m.signer, round: m.envelopeRound, group })
    }
    report.rounds.push(round)
  }
  return report
}

/**
 * bench/hostile.ts's flood: every round, each class from fresh identities until the class has sent its
 * share of `perClass` messages in all (delivered or not: a tab that hung up on us takes none); reports
 * what went out per class and the groups sent.
 */
async function flood(node: Node, o: RoundAttackOptions & { perClass: number }): Promise<FloodReport> {
  const tokenizer = parseTokenizerJson(JSON.parse(readFileSync(o.tokenizerPath, 'utf8')))
  const clock = { genesisTime: o.genesisTime, roundLengthMs: o.roundLengthMs, windowFraction: 0 }
  const topic = topicFor(o.swarmId, 'rollouts')
  const base = { ...o, tokenizer, main: node.peerId.toString() }
  const report: FloodReport = {
    rounds: [],
    attempted: Object.fromEntries(ROUND_ATTACK_CLASSES.map((c) => [c, 0])) as FloodReport['attempted'],
    messages: Object.fromEntries(ROUND_ATTACK_CLASSES.map((c) => [c, 0])) as FloodReport['messages'],
    deliveries: 0,
    identities: [],
    groups: [],
  }
  const perRound = Math.ceil(o.perClass / o.rounds)
  // A class the tabs charge to whoever hands it over (a malformed body) gets this connection hung up on
  // after BLOCK_AFTER_REJECTS, so it goes last, all at once, in the last round.
  const charged = (cls: RoundAttackClass) => REFUSED_AS[cls].gossip === 'malformed'
  const uncharged = ROUND_ATTACK_CLASSES.filter((cls) => !charged(cls))
  for (let round = roundAt(clock, Date.now()) + 1; report.rounds.length < o.rounds; round++) {
    const last = report.rounds.length === o.rounds - 1
    const classes = last ? [...uncharged, ...ROUND_ATTACK_CLASSES.filter(charged)] : uncharged
    // messages one repetition of each class makes, counted on placeholder ids
    const plan = classes.map((cls) => {
      const once = classFloodMessages({ ...base, fresh: () => base.main }, cls, round, Date.now(), 1)
      return { cls, times: Math.ceil((charged(cls) ? o.perClass : perRound) / once.length) }
    })
    const keys = await Promise.all(
      Array.from({ length: plan.reduce((a, p) => a + p.times, 0) }, () => generateKeyPair('Ed25519')),
    )
    const byId = new Map(keys.map((k) => [peerIdFromPrivateKey(k).toString(), k]))
    const ids = [...byId.keys()]
    await sleep(roundTimes(clock, round).start + o.offsetMs - Date.now())
    for (const { cls, times } of plan) {
      const messages = classFloodMessages({ ...base, fresh: () => ids.pop()! }, cls, round, Date.now(), times)
      for (const m of messages) {
        const signed = await signedMessage(byId.get(m.signer)!, topic, m.data)
        const delivered = m.to.filter((peer) => sendTo(node.services.pubsub, peer, signed)).length
        report.attempted[cls]++
        if (delivered === 0) continue
        report.messages[cls]++
        report.deliveries += delivered
        for (const group of m.groups) report.groups.push({ from: m.signer, round: m.envelopeRound, group })
      }
      // let the sockets drain between classes
      await sleep(0)
    }
    report.identities.push(...byId.keys())
    report.rounds.push(round)
  }
  return report
}

async function main(): Promise<void> {
  const [relayAddr, portArg] = process.argv.slice(2)
  const listenPort = Number(portArg)
  if (relayAddr === undefined || !Number.isInteger(listenPort) || listenPort <= 0)
    throw new Error('usage: hostile-peer-process.ts <relay multiaddr> <listen port>')
  // our own key, kept: the round attack signs some messages with it and others with fresh keys
  const key = await generateKeyPair('Ed25519')
  const node = await startNode(listenPort, key)
  await node.dial(multiaddr(relayAddr))
  const stop = async (): Promise<void> => {
    await node.stop()
    process.exit(0)
  }
  process.on('disconnect', () => void stop())
  process.on('message', (command: ParentCommand) => {
    if (command.type === 'stop') return void stop()
    const run = async (): Promise<ChildReply> => {
      if (command.type === 'wait-for-subscribers') {
        const topic = topicFor(command.swarmId, command.kind)
        return {
          type: 'subscribers',
          peerIds: await waitForSubscribers(node, topic, command.peerIds, command.timeoutMs),
        }
      }
      if (command.type === 'connections') {
        return { type: 'connections', peerIds: node.getConnections().map((c) => c.remotePeer.toString()) }
      }
      if (command.type === 'forge') return { type: 'forged', rounds: await forge(node, command) }
      if (command.type === 'flood') return { type: 'flooded', report: await flood(node, command) }
      if (command.type === 'round-attack')
        return { type: 'round-attacked', report: await roundAttack(node, key, command) }
      return { type: 'attacked', counts: await attack(node, command) }
    }
    void run().then(reply, (err: Error) => reply({ type: 'error', message: err.message }))
  })
  const self = node.peerId.toString()
  await reply({
    type: 'ready',
    peerId: self,
    name: animalName(self),
    addrs: node.getMultiaddrs().map(String),
  })
}

main().catch(async (err: Error) => {
  await reply({ type: 'error', message: err.message })
  process.exit(1)
})
