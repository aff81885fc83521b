// One arm of the swarm-vs-solo benchmark, run in its own process so two arms use both cores: four
// peers starting from the shipped model, each generating the same 4 groups of G = 2 per round in every
// arm, then training either on 2 own + 2 heard groups (sharing; drawn uniformly as RL Swarm does, or
// groups with a signal first) or on its 4 own groups (isolated): 8 rollouts per training step either
// way. Each peer's curriculum (src/swarm/curriculum.ts) picks the cells of its free slots and the run logs
// the choices; given another run's JSON, it replays that run's choices instead, so arms draw the same
// tasks. Held-out pass@1 is greedy on the reserved prompts (held out by prompt text,
// src/tasks/held-out-set.ts) at the draw's difficulties and the next, the float64 decoder: 100 a cell for
// the curve, the full set (500 a cell, or all a small space has) at the start and the end. Prints one
// JSON line.
//   node --import ./src/polyfills/register.js bench/swarm-vs-solo-run.ts <swarm|swarm-signal|solo> <seed> <rounds> <evalEvery> <lr> [replay.json]
import { readFileSync } from 'node:fs'
import { readCheckpoint } from '../src/model/checkpoint.ts'
import { flatFromParams } from '../src/model/f64/flat-params.ts'
import { parseManifest } from '../src/model/load/model-manifest.ts'
import { evaluateReserved } from '../src/model/sft/held-out-eval.ts'
import { parseTokenizerJson } from '../src/model/tokenizer/bpe-tokenizer.ts'
import { chooseCells, EMPTY_CURRICULUM, updateCurriculum } from '../src/swarm/curriculum.ts'
import { DEFAULT_LEARNING, learningCells, type LearningConfig } from '../src/swarm/learning-config.ts'
import { createMemoryHub } from '../src/swarm/memory-comm.ts'
import { createReproduciblePolicy, type ReproduciblePolicy } from '../src/swarm/reproducible-policy.ts'
import { createRoundInbox } from '../src/swarm/round-inbox.ts'
import { cellKey, type Cell } from '../src/swarm/round-tasks.ts'
import { runRound, type PeerContext, type Scorer } from '../src/swarm/swarm-round.ts'
import { HELD_OUT_PER_CELL } from '../src/tasks/held-out-set.ts'
import type { PassInterval } from '../src/tasks/pass-interval.ts'
import { CODEZERO_REWARD } from '../src/tasks/reward.ts'
import { scoreReasoning } from '../src/tasks/score-completion.ts'
import { DIFFICULTIES, type ReasoningTask } from '../src/tasks/task.ts'
import type { Arm, ArmResult } from './swarm-vs-solo-arms.ts'

const PEERS = 4
/** Reserved prompts per family and difficulty for the curve's points; start and end use the full set. */
const CURVE_PER_CELL = 100
/** The difficulties the draw covers and the next one up (the held-out mix). */
const { min, max } = DEFAULT_LEARNING.difficulties
const EVAL_DIFFICULTIES = DIFFICULTIES.filter((d) => d >= min && d <= max + 1)

const folder = new URL('../public/models/tabswarm-tiny/', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, folder))

function learningFor(arm: Arm, lr: number): LearningConfig {
  // both arms generate the same 4 groups per round (same tasks: one swarm id per seed), so their own
  // rewards are comparable task for task; they differ only in what they train on
  const shared = {
    ...DEFAULT_LEARNING,
    tasksPerRound: 4,
    grpo: { ...DEFAULT_LEARNING.grpo, lr },
  }
  if (arm === 'solo') return { ...shared, sapo: { localGroups: 4, externalGroups: 0 } }
  return {
    ...shared,
    sapo: { localGroups: 2, externalGroups: 2, pick: arm === 'swarm' ? 'uniform' : 'signal' },
  }
}

async function main(): Promise<void> {
  const [arm, seedText, roundsText, evalEveryText, lrText, replayPath] = process.argv.slice(2) as [
    Arm,
    string,
    string,
    string,
    string,
    string | undefined,
  ]
  const replay = replayPath && (JSON.parse(readFileSync(replayPath, 'utf8')) as ArmResult).choices
  const seed = Number(seedText)
  const rounds = Number(roundsText)
  const evalEvery = Number(evalEveryText)
  const started = performance.now()
  const { config, params } = readCheckpoint(read('model.safetensors'))
  const tokenizer = parseTokenizerJson(JSON.parse(read('tokenizer.json').toString('utf8')))
  const manifest = parseManifest(read('tabswarm.json'))
  const eosId = tokenizer.tokenId('<|endoftext|>')!
  const learning = learningFor(arm, Number(lrText))
  const reward = { ...CODEZERO_REWARD, maxTokens: learning.sampling.maxNewTokens }
  const score: Scorer = async (task, c, eos) =>
    scoreReasoning(task as ReasoningTask, c.text, eos ? c.tokenIds.length : reward.maxTokens, reward).reward
      .total

  // the swarm shares one hub; solo peers each get their own, so nobody hears them
  const swarmHub = createMemoryHub()
  // one swarm id per seed, not per arm: both arms' peers draw the same tasks every round
  const swarmId = `seed-${seed}`.padEnd(64, '0')
  const cells = learningCells(learning)
  const byKey = new Map(cells.map((c) => [cellKey(c), c]))
  const curricula = Array.from({ length: PEERS }, () => EMPTY_CURRICULUM)
  const choices: string[][][] = []
  // the free slots' cells: replayed, or the peer's curriculum's; logged either way
  const choose = (peer: number, round: number, count: number): Cell[] => {
    const chosen = replay
      ? replay[round]![peer]!.map((key) => byKey.get(key)!)
      : chooseCells(curricula[peer]!, {
          swarmId,
          round,
          peerId: `peer${peer}`,
          cells,
          count,
          groupSize: learning.groupSize,
        })
    ;(choices[round] ??= [])[peer] = chosen.map(cellKey)
    return chosen
  }
  const peers: (PeerContext & { policy: ReproduciblePolicy })[] = Array.from({ length: PEERS }, (_, i) => {
    const hub = arm === 'solo' ? createMemoryHub() : swarmHub
    const comm = hub.join(`peer${i}`)
    return {
      chooseCells: (round, count) => choose(i, round, count),
      swarmId,
      comm,
      inbox: createRoundInbox(comm, learning.groupSize),
      learning,
      policy: createReproduciblePolicy({
        config,
        params,
        tokenizer,
        promptTemplate: manifest.promptTemplate,
        eosId,
        sampling: learning.sampling,
        grpo: { ...learning.grpo, beta1: 0.9, beta2: 0.999, eps: 1e-8 },
      }),
      score,
      // the window closes once every peer of the hub has published its round
      windowClosed: (round) => hub.allPublished(round),
    }
  })

  const reserved = (policy: ReproduciblePolicy, perCell: number): PassInterval =>
    evaluateReserved(
      { config, views: flatFromParams(config, policy.state.params).views, tokenizer, stopToken: eosId },
      EVAL_DIFFICULTIES,
      perCell,
    ).mix

  const result: ArmResult = {
    arm,
    seed,
    reward: [],
    informative: [],
    evalRounds: [],
    pass1: [],
    pass1Ci95: [],
    formatFailures: [],
    evalTasks: [],
    choices,
    seconds: 0,
  }
  const evaluate = (round: number) => {
    const perCell = round === 0 || round === rounds ? HELD_OUT_PER_CELL : CURVE_PER_CELL
    // every peer starts from the same weights: the start is scored once
    const scores =
      round === 0
        ? Array(PEERS).fill(reserved(peers[0]!.policy, perCell))
        : peers.map((p) => reserved(p.policy, perCell))
    result.evalRounds.push(round)
    result.pass1.push(scores.map((s) => s.pass))
    result.pass1Ci95.push(scores.map((s) => [s.ci95[0], s.ci95[1]]))
    result.formatFailures.push(scores.map((s) => s.formatFailures))
    result.evalTasks.push(scores[0]!.tasks)
  }
  evaluate(0)
  for (let round = 0; round < rounds; round++) {
    const reports = await Promise.all(peers.map((p) => runRound(p, round)))
    result.reward.push(reports.map((r) => r.ownReward))
    result.informative.push(reports.map((r) => r.trainedOn.informative ?? 0))
    reports.forEach((r, i) => (curricula[i] = updateCurriculum(curricula[i]!, r.drawn ?? [])))
    if ((round + 1) % evalEvery === 0 || round + 1 === rounds) evaluate(round + 1)
    process.stderr.write(
      `${arm} seed ${seed} round ${round + 1}/${rounds}: reward ${(reports.reduce((a, r) => a + r.ownReward, 0) / PEERS).toFixed(3)}\n`,
    )
  }
  result.seconds = (performance.now() - started) / 1000
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

await main()
