// A hostile Node libp2p peer for the e2e specs. It joins a swarm like a tab (WebSockets to the relay,
// pubsub discovery), listens on a WebSockets port so the tabs dial it directly, and on command publishes
// hostile messages on the swarm's presence topic. It runs in a child process (hostile-peer-process.ts)
// because libp2p's WebSocket dialer needs a global WebSocket, which Node 20 only has behind
// --experimental-websocket — the same reason as src/node/relay/reserving-peers.ts.
import { fileURLToPath } from 'node:url'
import { DEFAULT_RATE_LIMITS } from '../src/core/protocol/gossip-validator.ts'
import { nextReply } from '../src/node/cli/next-reply.ts'
import { forkPeerProcess } from '../src/node/cli/fork-peer-process.ts'
import type { Cell } from '../src/core/learning/round-tasks.ts'
import type { GossipKind } from '../src/core/protocol/topics.ts'
import type { FloodReport, RoundAttackOptions, RoundAttackReport } from './round-attack.ts'

/**
 * The kinds of hostile message, and the reason a tab's validator gives for each:
 * - schema-invalid: validly signed, a body the presence schema refuses ('invalid-body' within the
 *   presence rate limit, 'rate-limited' beyond it: the limiter runs before the body check);
 * - sender-mismatch: the envelope's `from` names a tab, the signer is us ('sender-mismatch');
 * - oversized: 100 KiB on the presence topic, whose cap is 2 KiB ('oversized');
 * - unknown-version: an envelope version the tabs do not speak ('unknown-version');
 * - stale-replay: one recorded message, older than gossipsub's seen-cache TTL, re-published with a fresh
 *   seqno each time: new to gossipsub, stale to the validator ('stale');
 * - flood: presences with our own animal name, far faster than the presence rate limit: refused as
 *   'rate-limited' beyond the limit's burst. Within the burst they reach the body check, which refuses
 *   them for a memory size out of range ('invalid-body'): a genuine presence there would be accepted —
 *   rightly — and the attacker would show up under its own name.
 */
export const ATTACK_CLASSES = [
  'schema-invalid',
  'sender-mismatch',
  'oversized',
  'unknown-version',
  'stale-replay',
  'flood',
] as const
export type AttackClass = (typeof ATTACK_CLASSES)[number]

/** The reason a tab gives for the classes that never reach its rate limiter. */
export const REASON_OF = {
  'sender-mismatch': 'sender-mismatch',
  oversized: 'oversized',
  'unknown-version': 'unknown-version',
  'stale-replay': 'stale',
} as const

/**
 * How the attack opens: one of each class that never reaches the rate limiter — the 100 KiB one first,
 * so the small ones behind it arrive together rather than one big transfer apart — and then as many
 * schema-invalid messages as the presence rate limit's burst. Those pass the age and replay checks and
 * spend the burst, so the flood message that follows (the first of the cycle) is refused as 'rate-limited'.
 */
const OPENING: readonly AttackClass[] = [
  'oversized',
  'sender-mismatch',
  'unknown-version',
  'stale-replay',
  ...Array.from({ length: DEFAULT_RATE_LIMITS.presence.burst }, (): AttackClass => 'schema-invalid'),
]
const CYCLE: readonly AttackClass[] = [
  'flood',
  'schema-invalid',
  'sender-mismatch',
  'unknown-version',
  'stale-replay',
  'oversized',
]

/** A tab that judges this many of the first messages has met every class and given every reason. */
export const EVERY_REASON_WITHIN = OPENING.length + 1

/**
 * The order of the attack. The classes take turns, so each is among the first few messages: a tab
 * judges only a first run of them before its gossipsub stops listening to us (see hostile-peer.spec.ts).
 */
export function attackOrder(total: number): AttackClass[] {
  const order = OPENING.slice(0, total)
  for (let i = 0; order.length < total; i++) order.push(CYCLE[i % CYCLE.length]!)
  return order
}

/** Per class: messages published, and how many of those still had a recipient (a tab not yet blocking us). */
export type AttackCounts = Record<AttackClass, { sent: number; delivered: number }>

export type ParentCommand =
  | { type: 'wait-for-subscribers'; swarmId: string; kind: GossipKind; peerIds: string[]; timeoutMs: number }
  | { type: 'connections' }
  | { type: 'attack'; swarmId: string; victims: string[]; total: number; batch: number; pauseMs: number }
  | ({ type: 'forge' } & ForgeOptions)
  | ({ type: 'round-attack' } & RoundAttackOptions)
  | ({ type: 'flood'; perClass: number } & RoundAttackOptions)
  | { type: 'stop' }

export type ChildReply =
  | { type: 'ready'; peerId: string; name: string; addrs: string[] }
  | { type: 'subscribers'; peerIds: string[] }
  | { type: 'connections'; peerIds: string[] }
  | { type: 'attacked'; counts: AttackCounts }
  | { type: 'forged'; rounds: number[] }
  | { type: 'round-attacked'; report: RoundAttackReport }
  | { type: 'flooded'; report: FloodReport }
  | { type: 'error'; message: string }

export interface AttackOptions {
  /** the tabs: forged messages claim to come from them */
  victims: string[]
  /** messages in all; default 1000 */
  total?: number
  /** messages published back to back between two pauses; default 30 */
  batch?: number
  /** the pause, so the sockets drain and the tabs' event loops keep up; default 10 ms */
  pauseMs?: number
}

/**
 * The learning attack: in each round, inside its collection window, one rollouts message the schema
 * refuses (a group of G − 1 completions: the tabs' gossip validator drops it) and one message of
 * schema-valid forged groups, one per FORGERIES kind, all claiming full rewards.
 */
export interface ForgeOptions {
  swarmId: string
  genesisTime: number
  roundLengthMs: number
  /** when each round's messages go out, after the round starts (ms): inside the collection window */
  offsetMs: number
  /** rounds to forge, from the next one to start */
  rounds: number
  groupSize: number
  /** a reasoning family of the swarm: the forger's curriculum fills its free slots with it */
  family: string
  /** the swarm's cells (learningCells): the forger's draw is computed over them, as its receivers do */
  cells: Cell[]
  /** the swarm's tasks per round: receivers accept a group only for a task of its sender's own draw */
  tasksPerRound: number
  /** the swarm model's tokenizer.json on disk: forged completions can be tokenized correctly */
  tokenizerPath: string
}

/**
 * The forged groups a round's message holds, all for tasks of the forger's own draw (receivers refuse
 * any other task before these checks):
 * - wrong-task-id: a real task, but a task id that is not the task's (receivers regenerate it);
 * - mismatched-tokens: token ids that do not decode to the completion's text;
 * - unearned-rewards: a genuine task and correctly tokenized wrong answers, claiming reward 1 each
 *   (receivers re-score with their own verifiers and refuse claims that are not their rewards).
 * A tab refuses every one of them.
 */
export const FORGERIES = ['wrong-task-id', 'mismatched-tokens', 'unearned-rewards'] as const

export interface HostilePeer {
  peerId: string
  /** its animal name: what it would be shown as, were any of its presences accepted */
  name: string
  /** its listen addresses, /ip4/127.0.0.1/tcp/<port>/ws/p2p/<id> */
  addrs: string[]
  /** resolves once every one of `peerIds` has told us it subscribes to the swarm's `kind` topic (presence) */
  waitForSubscribers(peerIds: string[], timeoutMs?: number, kind?: GossipKind): Promise<void>
  /** peer ids it has connections to */
  connections(): Promise<string[]>
  /** publishes the hostile messages, interleaving the classes; resolves with what was sent */
  attack(options: AttackOptions): Promise<AttackCounts>
  /** publishes forged and schema-invalid rollouts for `rounds` rounds; resolves with the rounds done */
  forge(options: Omit<ForgeOptions, 'swarmId'>): Promise<number[]>
  /** the round attack (round-attack.ts) for `rounds` rounds; resolves with what was sent */
  roundAttack(options: Omit<RoundAttackOptions, 'swarmId'>): Promise<RoundAttackReport>
  /** bench/hostile.ts: `perClass` messages of every round-attack class from fresh identities over `rounds` */
  flood(options: Omit<RoundAttackOptions, 'swarmId'> & { perClass: number }): Promise<FloodReport>
  /** stops the peer and waits for the child process to exit */
  stop(): Promise<void>
}

export interface SpawnHostilePeerOptions {
  /** a relay multiaddr from the swarm config */
  relayAddr: string
  /** the WebSockets port it listens on (127.0.0.1) */
  port: number
  swarmId: string
}

/** Generous: the child compiles TypeScript on start, on a machine busy with Chromium. */
const START_TIMEOUT_MS = 60_000
const ATTACK_TIMEOUT_MS = 120_000

const childEntry = fileURLToPath(new URL('./hostile-peer-process.ts', import.meta.url))

export async function spawnHostilePeer({
  relayAddr,
  port,
  swarmId,
}: SpawnHostilePeerOptions): Promise<HostilePeer> {
  const { child, exited } = forkPeerProcess(childEntry, [relayAddr, String(port)])
  const ask = async <T extends ChildReply['type']>(
    command: ParentCommand,
    expected: T,
    timeoutMs: number,
  ): Promise<Extract<ChildReply, { type: T }>> => {
    const answer = nextReply<ChildReply>(child, timeoutMs, 'hostile peer')
    child.send(command)
    const reply = await answer
    if (reply.type !== expected) throw new Error(`hostile peer: ${command.type} failed: ${describe(reply)}`)
    return reply as Extract<ChildReply, { type: T }>
  }
  try {
    const ready = await nextReply<ChildReply>(child, START_TIMEOUT_MS, 'hostile peer')
    if (ready.type !== 'ready') throw new Error(`hostile peer failed to start: ${describe(ready)}`)
    return {
      peerId: ready.peerId,
      name: ready.name,
      addrs: ready.addrs,
      async waitForSubscribers(peerIds, timeoutMs = 30_000, kind = 'presence') {
        const command = { type: 'wait-for-subscribers', swarmId, kind, peerIds, timeoutMs } as const
        await ask(command, 'subscribers', timeoutMs + 5_000)
      },
      async connections() {
        return (await ask({ type: 'connections' }, 'connections', START_TIMEOUT_MS)).peerIds
      },
      async attack({ victims, total = 1000, batch = 30, pauseMs = 10 }) {
        const command = { type: 'attack', swarmId, victims, total, batch, pauseMs } as const
        return (await ask(command, 'attacked', ATTACK_TIMEOUT_MS)).counts
      },
      async forge(options) {
        const timeout = (options.rounds + 2) * options.roundLengthMs
        return (await ask({ type: 'forge', swarmId, ...options }, 'forged', timeout)).rounds
      },
      async roundAttack(options) {
        const timeout = (options.rounds + 2) * options.roundLengthMs
        return (await ask({ type: 'round-attack', swarmId, ...options }, 'round-attacked', timeout)).report
      },
      async flood(options) {
        // signing and sending tens of thousands of messages can run past the rounds themselves
        const timeout = (options.rounds + 4) * options.roundLengthMs + 10 * 60_000
        return (await ask({ type: 'flood', swarmId, ...options }, 'flooded', timeout)).report
      },
      async stop() {
        if (child.connected) child.send({ type: 'stop' } satisfies ParentCommand)
        await exited
      },
    }
  } catch (err) {
    child.kill()
    await exited
    throw err
  }
}

const describe = (reply: ChildReply): string => (reply.type === 'error' ? reply.message : reply.type)
