// One round of a learning peer, GenRL's game loop with IO behind interfaces: draw the round's tasks,
// sample G completions each, score them, share the groups, collect the others' while the window is
// open, re-score what arrived with our own verifiers, sample the SAPO batch and take one GRPO step.
// The same code runs in a tab (libp2p comm, workers) and headless in Node (in-memory comm).
import type { Task } from '../tasks/task.ts'
import type { SwarmComm } from './memory-comm.ts'
import { chooseCells, EMPTY_CURRICULUM } from './curriculum.ts'
import { learningCells, type LearningConfig } from './learning-config.ts'
import type { ExternalGroup } from './rollout-pool.ts'
import { CHARGED_DROPS, DROPPED, type DropReason } from './drop-log.ts'
import type { RoundInbox } from './round-inbox.ts'
import { isInformative } from './grpo-advantages.ts'
import {
  cellKey,
  freeSlots,
  isDrawable,
  roundTasks,
  slotInSendersDraw,
  type Cell,
  type RoundDraw,
} from './round-tasks.ts'
import type { TokenizedGroup } from './tokenized-group.ts'
import type { RolloutCompletion, RolloutGroup } from '../protocol/rollouts.ts'
import { sampleTrainingBatch } from './sapo-sampler.ts'
import { refOfTask, taskFromRef } from '../protocol/task-ref.ts'

export interface SampledCompletion extends RolloutCompletion {
  /** whether sampling stopped at EOS (else at the token limit) */
  eos: boolean
}

export interface SampleRequest {
  readonly promptIds: readonly number[]
  readonly samples: number
  readonly key: string
}

/** Every request's completions: in one batch where the policy can, else one prompt after another. */
async function sampleAll(policy: Policy, requests: readonly SampleRequest[]): Promise<SampledCompletion[][]> {
  if (policy.sampleMany) return policy.sampleMany(requests)
  const out: SampledCompletion[][] = []
  for (const r of requests) out.push(await policy.sample(r.promptIds, r.samples, r.key))
  return out
}

/** The model side of a peer: sampling (fast path) and training (reproducible kernels). */
export interface Policy {
  /** training steps taken */
  readonly version: number
  /** the model's context: training cuts each row (prompt, then completion) at this many tokens */
  readonly maxSeqLen: number
  promptIds(task: Task): number[]
  /** `key` makes the draw reproducible: the same weights, prompt and key give the same completions */
  sample(promptIds: readonly number[], samples: number, key: string): Promise<SampledCompletion[]>
  /**
   * `sample` for several prompts at once, where batching them is faster (the reproducible kernels
   * decode every prompt's rows in one pass): the same completions as `sample` on each request.
   */
  sampleMany?(requests: readonly SampleRequest[]): Promise<SampledCompletion[][]>
  /** whether these token ids are exactly this text (a sender cannot train us on tokens it did not show) */
  matches(completion: RolloutCompletion): boolean
  /**
   * `kl`: the mean KL to the reference policy, when the swarm trains with a KL penalty; `gradNorm`: the
   * step's global gradient norm before clipping, where the policy knows it
   */
  train(
    groups: readonly TokenizedGroup[],
  ): Promise<{ loss: number; kl?: number; gradNorm?: number; weightsHash: string }>
}

/** The receiver's own reward of one completion (verifiers, sandbox for code). */
export type Scorer = (task: Task, completion: RolloutCompletion, eos: boolean) => Promise<number>

export interface PeerContext {
  swarmId: string
  comm: SwarmComm
  /** the peer's subscription to others' rollouts (createRoundInbox over `comm`) */
  inbox: RoundInbox
  learning: LearningConfig
  policy: Policy
  score: Scorer
  /** resolves when the collection window of `round` closes */
  windowClosed(round: number): Promise<void>
  /** senders whose groups are left out unheard (a score below SCORE_IGNORE: src/core/learning/peer-standing.ts) */
  ignored?: (peerId: string) => boolean
  /** each heard group once judged (the tab's feed) */
  onJudged?: (heard: ExternalGroup, judgement: Judgement) => void
  /**
   * the cells of the round's `count` free slots: the curriculum's choice (chooseCells over the peer's
   * state), or a logged choice replayed; absent, the choice of a peer with no history
   */
  chooseCells?: (round: number, count: number) => readonly Cell[]
}

/**
 * What a heard group came to: our rewards of its completions, or why it was refused. `task` is the task
 * as we regenerated it, absent when the group was refused before its task was regenerated.
 */
export type Judgement =
  { task: Task; rewards: readonly number[] } | { task: Task | undefined; refusal: RefusalReason }

export interface RoundReport {
  round: number
  /**
   * the peer's own groups in slot order: each one's cell (cellKey) and our rewards; the first
   * `explored` are the exploration slots, the rest the curriculum's choice. Absent in rows saved before
   * the curriculum (they name one `difficulty` instead).
   */
  drawn?: { cell: string; rewards: number[] }[]
  explored?: number
  /** mean reward of the peer's own completions */
  ownReward: number
  /** mean reward, by our verifiers, of every completion heard from others this round */
  swarmReward: number | undefined
  groupsPublished: number
  groupsHeard: number
  /** groups refused after the window, each for one REFUSAL reason (a heard group never fails a round) */
  groupsRefused: number
  /** groups of ignored senders (score below SCORE_IGNORE), neither re-scored nor trained on */
  groupsIgnored: number
  /** by sender, the mean of our rewards of its accepted completions this round, and how many there were */
  peerRewards: Record<string, { reward: number; completions: number }>
  /**
   * messages and groups the inbox dropped before judging (drop-log.ts); absent in rows saved before they
   * were counted
   */
  groupsDropped?: number
  /**
   * by sender, how many of its groups this round we refused: those judged and refused, and those dropped
   * for a fault of the sender's (CHARGED_DROPS)
   */
  refusedFrom: Record<string, number>
  /**
   * by sender, its refused and dropped groups by reason (a REFUSAL or DROPPED sentence), charged or not;
   * at most MAX_DROP_SENDERS senders of drops; absent in rows saved before reasons
   */
  refusedWhy?: Record<string, Record<string, number>>
  /**
   * groups of the training step: own, heard, and of those how many carry a signal (rewards not all
   * equal: the others have zero advantage); `informative` is absent in rows saved before it was counted
   */
  trainedOn: { local: number; external: number; informative?: number }
  loss: number | undefined
  /** mean KL to the reference policy before the step; only with a KL penalty (learning.grpo.klBeta) */
  kl?: number
  /**
   * the step's global gradient norm before clipping (policy gradient and KL term together): the on-policy
   * GRPO loss is zero-mean and reads 0, this is what moves the weights; absent in rows saved before it
   */
  gradNorm?: number
  weightsHash: string | undefined
  policyVersion: number
}

/** Why a heard group is refused, as the Train view shows it. */
export const REFUSAL = {
  source: 'its task is not one of the families, kinds and difficulties this swarm draws',
  draw: "its task is not in its sender's draw for this round",
  task: 'its task does not regenerate to the task id it claims',
  tokens: 'its tokens do not decode to its text',
  rewards: 'claimed rewards do not match our verifiers',
  length: "its completions run past the model's context, so we would not train on what we judged",
  judge: 'our verifiers could not judge it',
} as const
export type RefusalReason = (typeof REFUSAL)[keyof typeof REFUSAL]

/**
 * Largest gap between a claimed reward and ours that still counts as equal. Verifiers are
 * deterministic, so an honest sender's rewards are ours exactly; the slack only absorbs a last-bit
 * difference in the float sums of the reward's terms on another JS engine.
 */
export const CLAIM_TOLERANCE = 1e-9

const mean = (xs: readonly number[]) =>
  xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length

/** A heard group judged: accepted with what we train on, or refused. */
type Judged = { task: Task; tokenized: TokenizedGroup } | { task: Task | undefined; refusal: RefusalReason }

/**
 * Checks an external group of `round` and re-scores it; the reason when it must be refused. `claimed`
 * holds the (sender, slot) pairs of the round filled by an accepted group: one per slot of a sender's
 * draw, so a sender cannot fill a free slot once per cell it might have chosen.
 */
async function rescore(
  ctx: PeerContext,
  round: number,
  { from, group }: ExternalGroup,
  cells: readonly Cell[],
  claimed: Set<string>,
): Promise<Judged> {
  const { learning } = ctx
  // only the swarm's own cells have verifiers we trust here (and a peer may have no others at all)
  if (!isDrawable(cells, group.task)) return { task: undefined, refusal: REFUSAL.source }
  const draw: RoundDraw = {
    swarmId: ctx.swarmId,
    round,
    peerId: from,
    tasksPerRound: learning.tasksPerRound,
    cells,
  }
  const slot = slotInSendersDraw(draw, group.task)
  if (slot === undefined || claimed.has(`${from}/${slot}`)) return { task: undefined, refusal: REFUSAL.draw }
  let task: Task
  try {
    task = taskFromRef(group.task)
  } catch {
    return { task: undefined, refusal: REFUSAL.task }
  }
  const refuse = (refusal: RefusalReason): Judged => ({ task, refusal })
  if (task.id !== group.taskId) return refuse(REFUSAL.task)
  if (!group.completions.every((c) => ctx.policy.matches(c))) return refuse(REFUSAL.tokens)
  const promptIds = ctx.policy.promptIds(task)
  // training keeps what fits the context; our own samples always fit, and a heard completion that would
  // be cut is refused rather than judged on a text we would not train on
  if (group.completions.some((c) => promptIds.length + c.tokenIds.length > ctx.policy.maxSeqLen))
    return refuse(REFUSAL.length)
  const max = learning.sampling.maxNewTokens
  const rewards = await Promise.all(group.completions.map((c) => ctx.score(task, c, c.tokenIds.length < max)))
  // rewards that are not ours come from other verifiers or a lie about the work: either way the group is
  // not the swarm's experience, and refusing it makes the claim cost the sender trust like any forgery
  if (rewards.some((r, i) => !(Math.abs(r - group.rewards[i]!) <= CLAIM_TOLERANCE)))
    return refuse(REFUSAL.rewards)
  const completions = group.completions.map((c) => c.tokenIds)
  claimed.add(`${from}/${slot}`)
  return { task, tokenized: { promptIds, completions, rewards, origin: { from, taskId: group.taskId } } }
}

/**
 * Judges a heard group on its own: whatever goes wrong judging it (a verifier that throws, a sandbox
 * this peer lacks) refuses that group and counts against its sender, never fails the round.
 */
async function judgeHeard(
  ctx: PeerContext,
  round: number,
  heard: ExternalGroup,
  cells: readonly Cell[],
  claimed: Set<string>,
): Promise<Judged> {
  try {
    return await rescore(ctx, round, heard, cells, claimed)
  } catch {
    return { task: undefined, refusal: REFUSAL.judge }
  }
}

export async function runRound(ctx: PeerContext, round: number): Promise<RoundReport> {
  const { learning, policy, comm } = ctx
  ctx.inbox.release(round)
  const pool = ctx.inbox.pool(round)
  const draw: RoundDraw = {
    swarmId: ctx.swarmId,
    round,
    peerId: comm.peerId,
    tasksPerRound: learning.tasksPerRound,
    cells: learningCells(learning),
  }
  const free = freeSlots(draw)
  const chosen =
    ctx.chooseCells?.(round, free) ??
    chooseCells(EMPTY_CURRICULUM, { ...draw, count: free, groupSize: learning.groupSize })
  const refs = roundTasks(draw, chosen)
  const own: RolloutGroup[] = []
  const ownTokenized = new Map<string, TokenizedGroup>()
  const tasks = refs.map(taskFromRef)
  const requests = tasks.map((task, i) => ({
    promptIds: policy.promptIds(task),
    samples: learning.groupSize,
    key: `${ctx.swarmId}/${round}/${comm.peerId}/${i}`,
  }))
  const sampled = await sampleAll(policy, requests)
  for (const [i, task] of tasks.entries()) {
    const { promptIds } = requests[i]!
    const samples = sampled[i]!
    const rewards = await Promise.all(samples.map((s) => ctx.score(task, s, s.eos)))
    const completions = samples.map(({ text, tokenIds }) => ({ text, tokenIds }))
    own.push({ taskId: task.id, task: refOfTask(task), completions, rewards, policyVersion: policy.version })
    ownTokenized.set(task.id, {
      promptIds,
      completions: completions.map((c) => c.tokenIds),
      rewards,
      origin: { from: comm.peerId, taskId: task.id },
    })
  }
  if (own.length > 0) await comm.publishRollouts(round, { groups: own })
  await ctx.windowClosed(round)
  pool.close()

  let refused = 0
  let ignored = 0
  const heard: ExternalGroup[] = []
  const heardTokenized = new Map<ExternalGroup, TokenizedGroup>()
  const rewardsFrom = new Map<string, number[]>()
  const refusedFrom: Record<string, number> = {}
  const refusedWhy: Record<string, Record<string, number>> = {}
  const claimed = new Set<string>()
  for (const g of pool.groups()) {
    if (ctx.ignored?.(g.from)) {
      ignored++
      continue
    }
    const judged = await judgeHeard(ctx, round, g, draw.cells, claimed)
    if ('refusal' in judged) {
      ctx.onJudged?.(g, judged)
      refused++
      refusedFrom[g.from] = (refusedFrom[g.from] ?? 0) + 1
      const why = (refusedWhy[g.from] ??= {})
      why[judged.refusal] = (why[judged.refusal] ?? 0) + 1
      continue
    }
    const { tokenized } = judged
    ctx.onJudged?.(g, { task: judged.task, rewards: tokenized.rewards })
    heard.push(g)
    heardTokenized.set(g, tokenized)
    rewardsFrom.set(g.from, [...(rewardsFrom.get(g.from) ?? []), ...tokenized.rewards])
  }
  // what the inbox dropped before judging (taken now, so a group arriving late for this round counts in
  // the next round's report), by sender and reason; charged only where the sender is at fault
  const drops = ctx.inbox.takeDrops()
  for (const [from, counts] of Object.entries(drops.bySender)) {
    const why = (refusedWhy[from] ??= {})
    for (const [reason, n] of Object.entries(counts) as [DropReason, number][]) {
      why[DROPPED[reason]] = (why[DROPPED[reason]] ?? 0) + n
      if (CHARGED_DROPS.has(reason)) refusedFrom[from] = (refusedFrom[from] ?? 0) + n
    }
  }
  const batch = sampleTrainingBatch(own, heard, learning.sapo, `${ctx.swarmId}/${round}/${comm.peerId}`)
  const groups = [
    ...batch.local.map((g) => ownTokenized.get(g.taskId)!),
    ...batch.external.map((g) => heardTokenized.get(g)!),
  ]
  // GRPO's advantage is zero in a group whose rewards are all equal: without a KL term such a group adds
  // nothing to the gradient, only its tokens to the loss's mean and its rows to the step's cost (about
  // half the rows of a round), so the step takes the groups with a signal only (DAPO's dynamic sampling
  // drops them too). With a KL term every token pulls toward the reference, so every group stays.
  const stepGroups = learning.grpo.klBeta ? groups : groups.filter((g) => isInformative(g.rewards))
  const step = stepGroups.length > 0 ? await policy.train(stepGroups) : undefined
  return {
    round,
    drawn: refs.map((ref, i) => ({ cell: cellKey(ref), rewards: [...own[i]!.rewards] })),
    explored: refs.length - free,
    ownReward: mean(own.flatMap((g) => g.rewards)) ?? 0,
    swarmReward: mean([...heardTokenized.values()].flatMap((g) => g.rewards)),
    groupsPublished: own.length,
    groupsHeard: heard.length,
    groupsRefused: refused,
    groupsIgnored: ignored,
    groupsDropped: drops.total,
    peerRewards: Object.fromEntries(
      [...rewardsFrom].map(([from, rewards]) => [
        from,
        { reward: mean(rewards)!, completions: rewards.length },
      ]),
    ),
    refusedFrom,
    refusedWhy,
    trainedOn: {
      local: batch.local.length,
      external: batch.external.length,
      informative: groups.filter((g) => isInformative(g.rewards)).length,
    },
    loss: step?.loss,
    ...(step?.kl === undefined ? {} : { kl: step.kl }),
    ...(step?.gradNorm === undefined ? {} : { gradNorm: step.gradNorm }),
    weightsHash: step?.weightsHash,
    policyVersion: policy.version,
  }
}
