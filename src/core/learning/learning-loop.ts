// The learning peer's game loop over rounds: on the round clock, run each round with runRound (the same
// function the headless peers run), report it, keep what we know of the other peers, move the
// curriculum, evaluate on the held-out set now and then, and save the history so a reload shows it and
// resumes. IO comes in through the options (clock, waiting, storage, events), so Node tests drive it
// with in-memory sharing and a stand-in policy.
import type { EvalPoint, PeerLearning, RoundRow } from './learning-state.ts'
import { chooseCells, updateCurriculum, type CurriculumState } from './curriculum.ts'
import { feedRows } from './feed-rows.ts'
import { learningCells } from './learning-config.ts'
import { historySaveFailure } from './save-failures.ts'
import { isIgnored, updatePeerStanding } from './peer-standing.ts'
import type { LearningEvent } from '../protocol/peer-worker-messages.ts'
import { nextRound, roundTimes, type RoundClock } from './round-clock.ts'
import { runRound, type PeerContext, type RoundReport } from './swarm-round.ts'

/** What survives a reload, per swarm and model. */
export interface LearningHistory {
  rounds: RoundRow[]
  evals: EvalPoint[]
  /** what the peer's own groups showed per cell: the curriculum's choice of the next rounds' cells */
  curriculum: CurriculumState
  peers: Record<string, PeerLearning>
}

export interface HistoryStore {
  load(): Promise<LearningHistory | undefined>
  save(history: LearningHistory): Promise<void>
}

/** Rows and evaluations kept: days of short rounds, still a small JSON file. */
export const MAX_HISTORY_ROUNDS = 2_000
export const MAX_HISTORY_EVALS = 500
/** Heard completions reported per round for the feed (the feed keeps FEED_LIMIT). */
export const HEARD_PER_ROUND = 32

/** The parts of a round row the loop cannot see: the tab's wiring measures them. */
export type RoundExtras = Partial<Pick<RoundRow, 'tokensPerSecond' | 'stepMs' | 'receiptId' | 'chainTip'>>

export interface LearningLoopOptions {
  clock: RoundClock
  /** the peer; the loop adds the window, the curriculum's choice of cells, and whom to ignore */
  peer: Omit<PeerContext, 'windowClosed' | 'ignored' | 'onJudged' | 'chooseCells'>
  nameOf(peerId: string): string
  emit(event: LearningEvent): void
  history: HistoryStore
  /**
   * held-out pass@1 of the weights after `round` (every learning.evalEvery rounds): it runs beside the
   * next rounds, so it takes its copy of the weights before it first awaits
   */
  evaluate?(at: { round: number; policyVersion: number }): Promise<EvalPoint>
  /** the extras of the round that just ran (sampling speed, step time, receipt), taken once per round */
  takeRoundExtras?(): RoundExtras
  /** ms since epoch */
  now(): number
  /** resolves at `time` (ms since epoch), or early when `signal` aborts */
  waitUntil(time: number, signal: AbortSignal): Promise<void>
}

export interface LearningLoop {
  /** resolves when the loop has stopped (after stop(), or a failure it cannot get past) */
  readonly done: Promise<void>
  /** rounds starting while paused are skipped (and reported so) */
  pause(): void
  resume(): void
  stop(): void
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

function skippedRow(round: number, reason: string, at: number, version: number): RoundRow {
  return {
    round,
    drawn: [],
    explored: 0,
    ownReward: 0,
    swarmReward: undefined,
    groupsPublished: 0,
    groupsHeard: 0,
    groupsRefused: 0,
    groupsIgnored: 0,
    peerRewards: {},
    refusedFrom: {},
    trainedOn: { local: 0, external: 0 },
    loss: undefined,
    weightsHash: undefined,
    policyVersion: version,
    startedAt: at,
    endedAt: at,
    tokensPerSecond: undefined,
    stepMs: undefined,
    receiptId: undefined,
    chainTip: undefined,
    skipped: reason,
  }
}

export function startLearningLoop(opts: LearningLoopOptions): LearningLoop {
  const { clock, peer, emit, now } = opts
  const { learning } = peer
  const abort = new AbortController()
  let paused = false
  let history: LearningHistory = { rounds: [], evals: [], curriculum: { cells: {} }, peers: {} }
  const cells = learningCells(learning)

  const phase = (p: Extract<LearningEvent, { type: 'learning-phase' }>['phase'], round: number) => {
    const t = roundTimes(clock, round)
    emit({ type: 'learning-phase', phase: p, round, roundEndsAt: t.end, windowClosesAt: t.windowCloses })
  }

  // The history is a record, not what learning needs: a save that fails (a full disk) is told once and
  // tried again with the next round's, never a reason to stop. Saves run one at a time, each writing the
  // history as it is when its turn comes (an evaluation finishes beside the rounds), so an older
  // history never lands after a newer one.
  let saveFailing = false
  const saveNow = async () => {
    try {
      await opts.history.save(history)
      if (saveFailing) emit({ type: 'learning-degraded', cause: 'history', message: null })
      saveFailing = false
    } catch (error) {
      if (!saveFailing)
        emit({ type: 'learning-degraded', cause: 'history', message: historySaveFailure(error) })
      saveFailing = true
    }
  }
  let saving = Promise.resolve()
  const save = () => (saving = saving.then(saveNow))

  const record = async (row: RoundRow) => {
    history = {
      ...history,
      rounds: [...history.rounds, row].slice(-MAX_HISTORY_ROUNDS),
      curriculum: updateCurriculum(history.curriculum, row.drawn ?? []),
      peers: updatePeerStanding(history.peers, row, opts.nameOf),
    }
    emit({ type: 'learning-round', row, peers: history.peers })
    await save()
  }

  const runOne = async (round: number): Promise<void> => {
    const startedAt = now()
    const heard = feedRows(HEARD_PER_ROUND)
    phase('sampling', round)
    let report: RoundReport
    try {
      report = await runRound(
        {
          ...peer,
          chooseCells: (r, count) =>
            chooseCells(history.curriculum, {
              swarmId: peer.swarmId,
              round: r,
              peerId: peer.comm.peerId,
              cells,
              count,
              groupSize: learning.groupSize,
            }),
          ignored: (id) => isIgnored(history.peers, id),
          onJudged: ({ from, group }, judgement) => {
            // a group refused before its task regenerated has no prompt we could show
            const prompt = judgement.task?.prompt ?? ''
            const rewards = 'rewards' in judgement ? judgement.rewards : undefined
            const refusal = 'refusal' in judgement ? judgement.refusal : undefined
            heard.add(
              group.completions.map((c, i) => ({
                from,
                name: opts.nameOf(from),
                round,
                family: group.task.family,
                prompt,
                answer: c.text,
                claimedReward: group.rewards[i]!,
                reward: rewards?.[i],
                ...(refusal && { refused: refusal }),
                receivedAt: now(),
              })),
            )
          },
          windowClosed: async (r) => {
            phase('collecting', r)
            await opts.waitUntil(roundTimes(clock, r).windowCloses, abort.signal)
            phase('training', r)
          },
        },
        round,
      )
    } catch (error) {
      if (abort.signal.aborted) return
      const why = message(error)
      emit({
        type: 'learning-error',
        message: `Round ${round} failed (${why}); the next round will try again.`,
        fatal: false,
      })
      await record(skippedRow(round, `the round failed: ${why}`, startedAt, peer.policy.version))
      return
    }
    const rollouts = heard.take()
    if (rollouts.length > 0) emit({ type: 'learning-heard', rollouts })
    const extras = opts.takeRoundExtras?.() ?? {}
    await record({
      ...report,
      startedAt,
      endedAt: now(),
      tokensPerSecond: extras.tokensPerSecond,
      stepMs: extras.stepMs,
      receiptId: extras.receiptId,
      chainTip: extras.chainTip,
      skipped: undefined,
    })
    if ((round + 1) % learning.evalEvery === 0) evaluateBeside(round)
  }

  /**
   * Held-out pass@1 of the weights as they are after `round`, recorded and told to the page. It runs
   * beside the rounds (a tab's evaluation is 144 greedy completions: seconds to tens of seconds on a
   * busy machine), so the next round keeps its beat; `opts.evaluate` scores the weights as they are
   * when it is called. One at a time: an evaluation due while the last still runs is left out, and a
   * failed one is told, never a reason to stop learning.
   */
  let evaluating = false
  const evaluateBeside = (round: number) => {
    if (!opts.evaluate || evaluating) return
    evaluating = true
    const at = { round, policyVersion: peer.policy.version }
    const { evaluate } = opts
    // an evaluate that throws before its promise is a failed evaluation like any other
    void new Promise<EvalPoint>((resolve) => resolve(evaluate(at)))
      .then(
        async (point) => {
          if (abort.signal.aborted) return
          history = { ...history, evals: [...history.evals, point].slice(-MAX_HISTORY_EVALS) }
          emit({ type: 'learning-eval', point })
          await save()
        },
        (error: unknown) => {
          if (abort.signal.aborted) return
          emit({
            type: 'learning-error',
            message: `The held-out evaluation after round ${round} failed (${message(error)}); the next one will try again.`,
            fatal: false,
          })
        },
      )
      .finally(() => (evaluating = false))
  }

  const loop = async (): Promise<void> => {
    const saved = await opts.history.load()
    if (saved) {
      history = saved
      emit({ type: 'learning-history', rounds: saved.rounds, evals: saved.evals, peers: saved.peers })
    }
    // a peer that has never evaluated scores the weights it starts from, so its curve has a start
    // (after the round before the one it joins) and not only points after its own first steps
    if (history.evals.length === 0) evaluateBeside(nextRound(clock, now(), undefined).round - 1)
    let lastRun: number | undefined
    while (!abort.signal.aborted) {
      const next = nextRound(clock, now(), lastRun)
      for (const s of next.skipped) await record(skippedRow(s.round, s.reason, now(), peer.policy.version))
      const start = roundTimes(clock, next.round).start
      if (now() < start) {
        phase('waiting', next.round)
        await opts.waitUntil(start, abort.signal)
        if (abort.signal.aborted) return
      }
      lastRun = next.round
      if (paused) await record(skippedRow(next.round, 'paused by you', now(), peer.policy.version))
      else await runOne(next.round)
    }
  }

  const done = loop().catch((error: unknown) => {
    emit({
      type: 'learning-error',
      message: `Learning stopped: ${message(error)}. Reload the page to start again.`,
      fatal: true,
    })
  })
  return {
    done,
    pause: () => void (paused = true),
    resume: () => void (paused = false),
    stop: () => abort.abort(),
  }
}
