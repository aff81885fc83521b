// A tab as a learning peer, wired in the peer worker: the swarm's model loaded into the solver worker
// (sampling) and the trainer worker (GRPO), rollouts shared over gossipsub through the bridge, every
// step's receipt signed with the peer key (through the bridge) and published, and the same learning
// loop and runRound as headless peers. Workers nest: the solver, trainer and sandbox workers are
// started from the peer worker, so everything keeps running while the tab is hidden.
import type { SwarmConfig } from '../../core/config/swarm-config.ts'
import { MemoryBlobStore } from '../../core/storage/blob-store.ts'
import { MODEL_CACHE_DIRECTORY, OpfsBlobStore } from '../../compute/model/load/opfs-blob-store.ts'
import { folderBaseUrl, urlFolder } from '../../compute/model/load/url-folder.ts'
import type { BridgeClient } from './bridge-client.ts'
import { createBrowserSandbox } from '../sandbox/browser-sandbox.ts'
import { createSolverClient, type SolverClient } from '../solver/solver-client.ts'
import { createTrainerClient } from '../trainer/trainer-client.ts'
import type { TrainerReady, TrainerStepResult } from '../trainer/trainer-session.ts'
import { sealReceipt } from '../../core/protocol/receipt.ts'
import { evaluateHeldOut, heldOutCells } from '../../core/learning/held-out-eval.ts'
import type { LearningConfig } from '../../core/learning/learning-config.ts'
import { blobHistoryStore, LEARNING_DIRECTORY } from '../../core/learning/learning-history-store.ts'
import { trainerUnsavedSentence } from '../../core/learning/save-failures.ts'
import { startLearningLoop, type LearningLoop, type RoundExtras } from '../../core/learning/learning-loop.ts'
import { loadLearningModel, shownNames, type LearningModel } from './learning-model.ts'
import { createLibp2pComm } from './libp2p-comm.ts'
import type { LearningEvent } from '../../core/protocol/peer-worker-messages.ts'
import { makeReceiptsBody } from '../../core/protocol/receipts-message.ts'
import { roundAt, roundTimes, type RoundClock } from '../../core/learning/round-clock.ts'
import { earnedTrust } from '../../core/learning/peer-standing.ts'
import { createRoundInbox } from '../../core/learning/round-inbox.ts'
import type { PeerLearning } from '../../core/learning/learning-state.ts'
import { startTrainer } from '../trainer/start-trainer.ts'
import { createTaskJudge } from '../../core/learning/task-judge.ts'
import { createWorkerPolicy } from './worker-policy.ts'

export interface TabLearningOptions {
  bridge: BridgeClient
  config: SwarmConfig
  learning: LearningConfig
  swarmId: string
  peerId: string
  nameOf(peerId: string): string
  emit(event: LearningEvent): void
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Loads everything and starts the loop; rejects with a sentence when the model cannot be loaded. */
export async function startTabLearning(opts: TabLearningOptions): Promise<LearningLoop> {
  const { bridge, config, learning, swarmId, peerId, emit } = opts
  const clock: RoundClock = {
    genesisTime: config.genesisTime,
    roundLengthMs: config.roundLengthMs,
    windowFraction: learning.windowFraction,
  }
  const loading = roundTimes(clock, Math.max(0, roundAt(clock, Date.now())))
  emit({
    type: 'learning-phase',
    phase: 'loading',
    round: loading.round,
    roundEndsAt: loading.end,
    windowClosesAt: loading.windowCloses,
  })
  const modelUrl = folderBaseUrl(learning.model).href
  const solver: SolverClient = createSolverClient()
  // the held-out evaluation has a solver of its own: it runs beside the rounds on a copy of the weights
  // it was asked about, while the round's solver samples and takes the next step's weights
  const evalSolver: SolverClient = createSolverClient()
  const trainer = createTrainerClient()
  const sandbox = learning.sources.some((s) => s.kind === 'code') ? createBrowserSandbox() : undefined
  const comm = createLibp2pComm({ bridge, swarmId, peerId })
  const release = () => {
    solver.terminate()
    evalSolver.terminate()
    trainer.terminate()
    sandbox?.dispose()
    void comm.stop()
  }
  let model: LearningModel
  let ready: TrainerReady
  let card: Awaited<ReturnType<SolverClient['load']>>
  try {
    const cache = OpfsBlobStore.available(MODEL_CACHE_DIRECTORY)
    model = await loadLearningModel(urlFolder(modelUrl, cache ? { cache } : {}))
    card = await solver.load({ kind: 'read', url: modelUrl, files: model.files })
    ready = await startTrainer(trainer, model, peerId)
    // a resumed trainer is past the shipped weights: the solver samples from where it left off
    if (ready.status.policyVersion > 0) await solver.swapWeights(ready.checkpoint)
    await comm.start()
  } catch (error) {
    release()
    throw new Error(`the swarm's model could not be started: ${message(error)}`, { cause: error })
  }
  const names = shownNames(modelUrl, model.modelId)
  const showModel = (weightsHash: string, policyVersion: number) =>
    emit({
      type: 'learning-model',
      model: { ...names, parameters: card.parameters, weightsHash, policyVersion },
    })
  showModel(ready.status.weightsHash, ready.status.policyVersion)
  // the weights in use (the last step's), what an evaluation scores
  let weights = ready.checkpoint

  let round = loading.round
  let extras: RoundExtras = {}
  let speeds: number[] = []
  // what the loop last reported of the other peers, for the inbox's earned trust
  let standing: Record<string, PeerLearning> = {}
  const emitTracked = (event: LearningEvent) => {
    if (event.type === 'learning-phase') round = event.round
    if (event.type === 'learning-round' || event.type === 'learning-history') standing = event.peers
    emit(event)
  }

  // whether the last step told the user it could not be saved (withdrawn when one is saved again)
  let unsavedShown = false
  const onStep = async (result: TrainerStepResult) => {
    const { body, inputs, info } = result.receipt
    weights = result.checkpoint
    extras = { ...extras, stepMs: result.stepMs, chainTip: body.chainTip }
    showModel(result.status.weightsHash, result.status.policyVersion)
    if (result.unsaved || unsavedShown) {
      const message = result.unsaved ? trainerUnsavedSentence(result.unsaved) : null
      emit({ type: 'learning-degraded', cause: 'trainer', message })
      unsavedShown = result.unsaved !== undefined
    }
    try {
      const receipt = await sealReceipt({ ...body, peerId }, bridge, info)
      extras = { ...extras, receiptId: receipt.receiptHash }
      await comm.publish('receipts', round, makeReceiptsBody(receipt, inputs))
      emit({ type: 'learning-receipt', round, receipt, inputs })
    } catch (error) {
      // the step is saved and its weights are in use: a receipt that did not go out is not a lost round
      emit({
        type: 'learning-error',
        message: `The receipt of round ${round}'s training step was not published (${message(error)}).`,
        fatal: false,
      })
    }
  }
  const sampling = {
    ...solver,
    generate: (...args: Parameters<SolverClient['generate']>) => {
      const call = solver.generate(...args)
      void call.then((r) => speeds.push(r.tokensPerSecond)).catch(() => {})
      return call
    },
  }
  const policy = createWorkerPolicy({
    solver: sampling,
    trainer,
    tokenizer: model.folder.tokenizer,
    promptTemplate: model.promptTemplate,
    vocabSize: model.folder.config.vocabSize,
    eosIds: model.folder.eosIds,
    maxSeqLen: model.folder.config.maxSeqLen,
    sampling: learning.sampling,
    grpo: learning.grpo,
    policyVersion: ready.status.policyVersion,
    onStep,
  })
  const judge = createTaskJudge(learning.sampling.maxNewTokens, sandbox && ((job) => sandbox.run(job)))
  // the evaluation's solver: the model loaded on first use (again after a failed load), then the
  // weights to score swapped in unless they are already there
  let evalLoad: Promise<unknown> | undefined
  let evalWeights: Uint8Array | undefined
  const loadEvalSolver = async (scored: Uint8Array) => {
    evalLoad ??= evalSolver
      .load({ kind: 'read', url: modelUrl, files: model.files })
      .catch((error: unknown) => {
        evalLoad = undefined
        throw error
      })
    await evalLoad
    if (evalWeights === scored) return
    await evalSolver.swapWeights(scored)
    evalWeights = scored
  }
  const greedy = { temperature: 0, topK: 0, topP: 1, maxNewTokens: learning.sampling.maxNewTokens, seed: 0 }
  const loop = startLearningLoop({
    clock,
    peer: {
      swarmId,
      comm,
      inbox: createRoundInbox(comm, learning.groupSize, (id) => earnedTrust(standing, id)),
      learning,
      policy,
      score: judge.score,
    },
    nameOf: opts.nameOf,
    emit: emitTracked,
    history: blobHistoryStore(
      OpfsBlobStore.available(LEARNING_DIRECTORY) ?? new MemoryBlobStore(),
      swarmId,
      peerId,
    ),
    evaluate: async (at) => {
      const scored = weights
      await loadEvalSolver(scored)
      return evaluateHeldOut(
        // built on the first evaluation (seconds, most of it proving small spaces exhausted), then memoised
        heldOutCells(learning.sources, learning.difficulties),
        async (task) => {
          const [answer] = (await evalSolver.generate(task.prompt, 1, greedy)).completions
          return { text: answer?.text ?? '', tokens: answer?.tokenIds.length ?? 0 }
        },
        judge.correct,
        at,
      )
    },
    takeRoundExtras: () => {
      const taken = {
        ...extras,
        tokensPerSecond: speeds.length ? speeds.reduce((a, b) => a + b, 0) / speeds.length : undefined,
      }
      extras = {}
      speeds = []
      return taken
    },
    now: Date.now,
    waitUntil: (time, signal) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, time - Date.now()))
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
      }),
  })
  void loop.done.finally(release)
  return loop
}
