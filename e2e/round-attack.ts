// The round attack of the hostile peer (hostile-peer.ts, issue 20's items 1–8): every round, rollouts
// messages that are signed and schema-valid (bar the one class the validator is there to refuse) and
// that no tab may train on, each class sent from the attacker's own identity and again from a fresh
// identity of its own. Everything an attacker needs is public: the round clock, the swarm's cells and
// each tab's draw (round-tasks.ts recomputes it from swarm, round, peer and cell). Pure: the child
// process (hostile-peer-process.ts) signs the messages and sends them.
import type { Tokenizer } from '../src/compute/model/tokenizer/tokenizer.ts'
import { CODE_TEMPLATES } from '../src/core/tasks/code-templates.ts'
import { generateCodeTask } from '../src/core/tasks/generate-code-task.ts'
import { encodeEnvelope, PROTOCOL_VERSION } from '../src/core/protocol/envelope.ts'
import { DEFAULT_MAX_AGE_MS } from '../src/core/protocol/gossip-validator.ts'
import { freeSlots, roundTasks, type Cell, type RoundDraw } from '../src/core/learning/round-tasks.ts'
import {
  MAX_GROUPS_PER_MESSAGE,
  type RolloutCompletion,
  type RolloutGroup,
} from '../src/core/protocol/rollouts.ts'
import { REFUSAL, type RefusalReason } from '../src/core/learning/swarm-round.ts'
import { refOfTask, taskFromRef, type TaskRef } from '../src/core/protocol/task-ref.ts'

/**
 * The classes, by the issue's items:
 * - unknown-family (1): a task of a family no peer has;
 * - code-task (2): a real code task, right id and tokens, in a swarm that draws reasoning only;
 * - infinity (3): a reward written `1e999` in the raw JSON (JSON.parse makes it Infinity);
 * - shadowing (4): right-and-wrong answers to the tabs' own tasks, this round and the next two;
 * - pool-capture (5): full messages of groups for the next round, from several identities;
 * - (6) is every class again from fresh identities, new each round;
 * - stale (7): messages 59.5 s old, sent to one tab alone so it forwards them while they turn stale,
 *   and 60.5 s old ones to all;
 * - forwarded-replay (7): one message to two tabs, and under a new message id to the third, which
 *   forwards it to the two as a replay: timing refusals an honest tab hands on;
 * - hidden-tokens (8): token ids with an end-of-sequence token inside that the text does not show;
 * - too-long (8): a completion longer than the model's context, text and tokens matching.
 */
export const ROUND_ATTACK_CLASSES = [
  'unknown-family',
  'code-task',
  'infinity',
  'shadowing',
  'pool-capture',
  'stale',
  'forwarded-replay',
  'hidden-tokens',
  'too-long',
] as const
export type RoundAttackClass = (typeof ROUND_ATTACK_CLASSES)[number]

/**
 * How a tab refuses each class: at its round, a REFUSAL sentence counted against the signer (the Train
 * leaderboard), or at its gossip validator, a reason the Network card counts. A stale message that
 * arrives within the age limit is judged at the round instead: its task is not its sender's.
 */
export const REFUSED_AS: Readonly<Record<RoundAttackClass, { round?: RefusalReason; gossip?: string }>> = {
  'unknown-family': { round: REFUSAL.source },
  'code-task': { round: REFUSAL.source },
  infinity: { gossip: 'malformed' },
  shadowing: { round: REFUSAL.draw },
  'pool-capture': { round: REFUSAL.draw },
  stale: { round: REFUSAL.draw, gossip: 'stale' },
  'forwarded-replay': { gossip: 'replay' },
  'hidden-tokens': { round: REFUSAL.tokens },
  'too-long': { round: REFUSAL.length },
}

/** Forwarded replays a round: more than the 20 refusals that used to hang up on the forwarder. */
export const REPLAYS_PER_ROUND = 25
/** Fresh identities that capture the next round's pool, each with a full message. */
export const POOL_CAPTURERS = 3
/** Fresh identities a round takes. */
export const FRESH_PER_ROUND = ROUND_ATTACK_CLASSES.length - 2 + POOL_CAPTURERS + REPLAYS_PER_ROUND
/** Ages of the stale class: just inside the validator's limit, and just past it. */
export const STALE_AGES_MS = [DEFAULT_MAX_AGE_MS - 500, DEFAULT_MAX_AGE_MS + 500] as const

export interface RoundAttackOptions {
  swarmId: string
  genesisTime: number
  roundLengthMs: number
  /** when each round's messages go out, after the round starts (ms): inside the collection window */
  offsetMs: number
  /** rounds to attack, from the next one to start */
  rounds: number
  groupSize: number
  /** the swarm's cells (learningCells) and tasks per round: what every draw is computed over */
  cells: Cell[]
  tasksPerRound: number
  /** the swarm model's tokenizer.json on disk, its end-of-sequence id and context length */
  tokenizerPath: string
  eosId: number
  maxSeqLen: number
  /** the tabs' peer ids: their draws are shadowed, and forwarded replays go through each in turn */
  tabs: string[]
}

/** A group the attacker sent: the receivers' trained-group hashes must never match one. */
export interface SentGroup {
  from: string
  round: number
  group: RolloutGroup
}

export interface RoundAttackReport {
  /** the attacker's own identity */
  main: string
  rounds: number[]
  /** per class, the fresh identities that sent it */
  identities: Record<RoundAttackClass, string[]>
  /** per class, messages that went out to at least one tab */
  messages: Record<RoundAttackClass, number>
  groups: SentGroup[]
}

/** What bench/hostile.ts's flood sent: messages per class (to at least one tab), every identity and group. */
export interface FloodReport {
  rounds: number[]
  /** per class, messages made and signed */
  attempted: Record<RoundAttackClass, number>
  /** per class, messages that went out to at least one tab (none once a tab has hung up on us) */
  messages: Record<RoundAttackClass, number>
  /** messages × the tabs each went to */
  deliveries: number
  identities: string[]
  groups: SentGroup[]
}

/** One message of the attack: its classes, who signs it, its bytes, whom it goes to, its groups. */
export interface AttackMessage {
  classes: RoundAttackClass[]
  signer: string
  data: Uint8Array
  to: readonly string[]
  envelopeRound: number
  groups: RolloutGroup[]
}

export interface RoundAttackContext extends RoundAttackOptions {
  tokenizer: Tokenizer
  main: string
  /** a new identity's peer id (the child holds its key) */
  fresh: () => string
}

const WRONG_ANSWER = 'the answer is banana'
/** A reward whose canonical JSON is unmistakable in the bytes, to be rewritten as 1e999. */
const INFINITY_MARK = 0.123456789

const completion = (tokenizer: Tokenizer, text: string): RolloutCompletion => ({
  text,
  tokenIds: tokenizer.encode(text),
})

function group(ctx: RoundAttackContext, ref: TaskRef, completions: RolloutCompletion[]): RolloutGroup {
  const task = taskFromRef(ref)
  return groupOf(ctx, task.id, refOfTask(task), completions)
}

function groupOf(
  ctx: RoundAttackContext,
  taskId: string,
  task: TaskRef,
  completions: RolloutCompletion[],
): RolloutGroup {
  const all = Array.from({ length: ctx.groupSize }, (_, i) => completions[i % completions.length]!)
  return { taskId, task, completions: all, rewards: all.map((_, i) => (i === 0 ? 1 : 0)), policyVersion: 0 }
}

const drawOf = (ctx: RoundAttackContext, peerId: string, round: number): RoundDraw => ({
  swarmId: ctx.swarmId,
  round,
  peerId,
  tasksPerRound: ctx.tasksPerRound,
  cells: ctx.cells,
})

/** Every task `peerId` may draw in `round`: its exploration slots, and its free slots filled from any cell. */
function tasksItMayDraw(ctx: RoundAttackContext, peerId: string, round: number): TaskRef[] {
  const draw = drawOf(ctx, peerId, round)
  const all = ctx.cells.flatMap((cell) =>
    roundTasks(
      draw,
      Array.from({ length: freeSlots(draw) }, () => cell),
    ),
  )
  return [...new Map(all.map((ref) => [JSON.stringify(ref), ref])).values()]
}

/** The signer's own draw, its free slots from the first cell: groups for these pass the draw check. */
const ownTasks = (ctx: RoundAttackContext, signer: string, round: number): TaskRef[] =>
  tasksItMayDraw(ctx, signer, round).slice(0, ctx.tasksPerRound)

/**
 * `refs` with a task id of their own, those whose task no group of `others` has first: the groups made
 * for them share one message with `others`, and a message holds one group per task.
 */
function apartFrom(refs: TaskRef[], others: RolloutGroup[]): TaskRef[] {
  const taken = new Set(others.map((g) => g.taskId))
  const byId = new Map(refs.map((ref) => [taskFromRef(ref).id, ref]))
  const ids = [...byId.keys()]
  return [...ids.filter((id) => !taken.has(id)), ...ids.filter((id) => taken.has(id))].map((id) =>
    byId.get(id)!,
  )
}

/** Right and wrong answers to every task the tabs may draw in `round`. */
function shadowing(ctx: RoundAttackContext, round: number): RolloutGroup[] {
  return ctx.tabs.flatMap((tab) =>
    tasksItMayDraw(ctx, tab, round).map((ref) => {
      const task = taskFromRef(ref)
      const right = task.kind === 'reasoning' ? task.answer : ''
      return group(ctx, ref, [completion(ctx.tokenizer, right), completion(ctx.tokenizer, WRONG_ANSWER)])
    }),
  )
}

/** Groups for tasks of the first cell at seeds of the attacker's choosing (none of any draw's). */
function poolFill(ctx: RoundAttackContext, signer: string, round: number, count: number): RolloutGroup[] {
  const cell = ctx.cells[0]!
  return Array.from({ length: count }, (_, i) =>
    group(ctx, { ...cell, seed: (round * 7919 + i * 104_729 + signer.length) % 2 ** 32 }, [
      completion(ctx.tokenizer, WRONG_ANSWER),
    ]),
  )
}

function unknownFamily(ctx: RoundAttackContext, round: number): RolloutGroup {
  const task: TaskRef = { kind: 'reasoning', family: 'no-such-family', difficulty: 1, seed: round }
  return groupOf(ctx, 'f'.repeat(64), task, [completion(ctx.tokenizer, 'the answer is 4')])
}

function codeTask(ctx: RoundAttackContext, round: number): RolloutGroup {
  const task = generateCodeTask(CODE_TEMPLATES[0]!.name, 1, round)
  return groupOf(ctx, task.id, refOfTask(task), [
    completion(ctx.tokenizer, `function ${task.entryPoint}() { return 0 }`),
  ])
}

/** An end-of-sequence token in the middle of the ids: the text shows none of it. */
function hiddenTokens(ctx: RoundAttackContext, ref: TaskRef): RolloutGroup {
  const text = 'the answer is 4'
  const ids = ctx.tokenizer.encode(text)
  const tokenIds = [...ids.slice(0, 2), ctx.eosId, ...ids.slice(2)]
  return group(ctx, ref, [{ text, tokenIds }])
}

/** A completion whose text and tokens match and which alone fills more than the model's context. */
function tooLong(ctx: RoundAttackContext, ref: TaskRef): RolloutGroup {
  let text = ''
  while (ctx.tokenizer.encode(text).length <= ctx.maxSeqLen) text += '12 + 34 = 46. '
  const long = completion(ctx.tokenizer, text)
  if (ctx.tokenizer.decode(long.tokenIds) !== text) throw new Error('the long completion does not round-trip')
  return group(ctx, ref, [long])
}

/**
 * Up to a message's worth of groups, none sharing a task id (the schema refuses a message that does):
 * the first group for a task stays, so a class listed first is never replaced by a later group — small
 * prompt spaces make the attacker's own draw meet a tab's task now and then, and its too-long group
 * once went missing that way, unjudged.
 */
const messageGroups = (groups: RolloutGroup[]): RolloutGroup[] =>
  groups
    .filter((g, i) => groups.findIndex((h) => h.taskId === g.taskId) === i)
    .slice(0, MAX_GROUPS_PER_MESSAGE)

/** Builds one round's messages, at `now` by the attacker's clock, in the order they go out. */
function roundMessages(ctx: RoundAttackContext, round: number, now: number) {
  const out: AttackMessage[] = []
  const envelope = (signer: string, envelopeRound: number, ts: number, body: unknown) =>
    encodeEnvelope({
      v: PROTOCOL_VERSION,
      swarmId: ctx.swarmId,
      round: envelopeRound,
      from: signer,
      ts,
      kind: 'rollouts',
      body,
    })
  const send = (
    cls: RoundAttackClass | RoundAttackClass[],
    signer: string,
    groups: RolloutGroup[],
    {
      envelopeRound = round,
      ts = now,
      to = ctx.tabs,
    }: { envelopeRound?: number; ts?: number; to?: readonly string[] } = {},
  ) => {
    const body = { groups: messageGroups(groups) }
    const classes = typeof cls === 'string' ? [cls] : cls
    const data = envelope(signer, envelopeRound, ts, body)
    out.push({ classes, signer, data, to, envelopeRound, groups: body.groups })
  }
  const victim = ctx.tabs[round % ctx.tabs.length]!
  const others = ctx.tabs.filter((t) => t !== victim)

  const infinity = (signer: string) => {
    const g = group(ctx, ownTasks(ctx, signer, round)[0]!, [completion(ctx.tokenizer, WRONG_ANSWER)])
    const json = new TextDecoder().decode(
      envelope(signer, round, now, { groups: [{ ...g, rewards: g.rewards.map(() => INFINITY_MARK) }] }),
    )
    const raw = json.replaceAll(String(INFINITY_MARK), '1e999')
    if (raw === json) throw new Error('the infinity mark is not in the message')
    out.push({
      classes: ['infinity'],
      signer,
      data: new TextEncoder().encode(raw),
      to: ctx.tabs,
      envelopeRound: round,
      groups: [g],
    })
  }
  const stale = (signer: string) => {
    const groups = shadowing(ctx, round).slice(0, 1)
    send('stale', signer, groups, { ts: now - STALE_AGES_MS[0], to: [victim] })
    send('stale', signer, groups, { ts: now - STALE_AGES_MS[1] })
  }

  /** The class once more, from fresh identities of its own (the `i`-th time this round). */
  const fresh = (cls: RoundAttackClass, i: number) => {
    switch (cls) {
      case 'unknown-family':
        return send(cls, ctx.fresh(), [unknownFamily(ctx, round)])
      case 'code-task':
        return send(cls, ctx.fresh(), [codeTask(ctx, round)])
      case 'infinity':
        return infinity(ctx.fresh())
      case 'shadowing': {
        const shadow = ctx.fresh()
        for (const ahead of [0, 1, 2])
          send(cls, shadow, shadowing(ctx, round + ahead), { envelopeRound: round + ahead })
        return
      }
      case 'pool-capture': {
        const capturer = ctx.fresh()
        return send(cls, capturer, poolFill(ctx, capturer, round + 1, MAX_GROUPS_PER_MESSAGE), {
          envelopeRound: round + 1,
        })
      }
      case 'stale':
        return stale(ctx.fresh())
      case 'hidden-tokens': {
        const hidden = ctx.fresh()
        return send(cls, hidden, [hiddenTokens(ctx, ownTasks(ctx, hidden, round)[0]!)])
      }
      case 'too-long': {
        const long = ctx.fresh()
        return send(cls, long, [tooLong(ctx, ownTasks(ctx, long, round)[0]!)])
      }
      case 'forwarded-replay': {
        // for a round the tabs have finished collecting (their inboxes drop it): only the replay is the point
        const replayer = ctx.fresh()
        const groups = shadowing(ctx, round).slice(0, 1)
        const ts = now - i
        send(cls, replayer, groups, { envelopeRound: round - 2, ts, to: others })
        send(cls, replayer, groups, { envelopeRound: round - 2, ts, to: [victim] })
      }
    }
  }

  /** The attacker's own identity: the round's classes together, the next rounds' in their own. */
  const own = () => {
    // a signer's rate limit is 4 messages at once, so the round's classes share one message
    const main = ctx.main
    const shadows = shadowing(ctx, round)
    const [forHidden, forLong] = apartFrom(tasksItMayDraw(ctx, main, round), shadows)
    send(['unknown-family', 'code-task', 'hidden-tokens', 'too-long', 'shadowing'], main, [
      unknownFamily(ctx, round),
      codeTask(ctx, round),
      hiddenTokens(ctx, forHidden!),
      tooLong(ctx, forLong ?? forHidden!),
      ...shadows,
    ])
    send(
      'pool-capture',
      main,
      [...shadowing(ctx, round + 1), ...poolFill(ctx, main, round + 1, MAX_GROUPS_PER_MESSAGE)],
      { envelopeRound: round + 1 },
    )
    send('shadowing', main, shadowing(ctx, round + 2), { envelopeRound: round + 2 })
    infinity(main)
    stale(main)
  }
  return { out, fresh, own }
}

/** Every message of `round`, in the order they go out, at `now` by the attacker's clock. */
export function roundAttackMessages(ctx: RoundAttackContext, round: number, now: number): AttackMessage[] {
  const { out, fresh, own } = roundMessages(ctx, round, now)
  own()
  // Each class again from fresh identities (pool capture from several, replays more than the old 20).
  for (const cls of ROUND_ATTACK_CLASSES) {
    const times = cls === 'pool-capture' ? POOL_CAPTURERS : cls === 'forwarded-replay' ? REPLAYS_PER_ROUND : 1
    for (let i = 0; i < times; i++) fresh(cls, i)
  }
  return out
}

/**
 * The flood of bench/hostile.ts: `cls` from `count` fresh identities in `round`, each repetition the
 * class's messages once (FRESH_PER_ROUND does not bound it: the caller makes `count` fresh keys).
 */
export function classFloodMessages(
  ctx: RoundAttackContext,
  cls: RoundAttackClass,
  round: number,
  now: number,
  count: number,
): AttackMessage[] {
  const { out, fresh } = roundMessages(ctx, round, now)
  for (let i = 0; i < count; i++) fresh(cls, i)
  return out
}
