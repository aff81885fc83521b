// One arm of the swarm-vs-solo benchmark, run in its own process so two arms use both cores: four
// peers starting from the same model, each generating the same groups per round in every arm, then
// training either on half own + half heard groups (sharing; drawn uniformly as RL Swarm does, or groups
// with a signal first) or on all its own (isolated): the same rollouts per training step either way.
// Each peer's curriculum (src/core/learning/curriculum.ts) picks the cells of its free slots and the run logs
// the choices; given another run's JSON, it replays that run's choices instead, so arms draw the same
// tasks. Held-out pass@1 is greedy on the reserved prompts (held out by prompt text,
// src/core/tasks/held-out-set.ts) at the draw's difficulties and the next, on the float64 decoder; the four
// peers split each evaluation's prompts (a quarter each), so a point is the arm's mean over its peers
// at a quarter of the cost: 100 prompts a family for the curve, the full set (500 a cell, or all a
// small space has) at the end. Prints one JSON line (an ArmResult).
//   node --import ./src/polyfills/register.js bench/swarm-vs-solo-run.ts '<ArmSpec JSON>'
import { readFileSync } from 'node:fs'
import { scoreReservedCells } from '../src/compute/model/sft/held-out-eval.ts'
import {
  chooseCells,
  EMPTY_CURRICULUM,
  successesOf,
  updateCurriculum,
} from '../src/core/learning/curriculum.ts'
import { learningCells } from '../src/core/learning/learning-config.ts'
import { createMemoryHub } from '../src/core/learning/memory-comm.ts'
import type { ReproduciblePolicy } from '../src/peer/peer/reproducible-policy.ts'
import { createRoundInbox } from '../src/core/learning/round-inbox.ts'
import { cellKey, type Cell } from '../src/core/learning/round-tasks.ts'
import { runRound, type PeerContext, type Scorer } from '../src/core/learning/swarm-round.ts'
import { answersBare } from '../src/core/tasks/answer-tag.ts'
import { HELD_OUT_PER_CELL } from '../src/core/tasks/held-out-set.ts'
import { poolCellScores, stratifiedInterval } from '../src/core/tasks/pass-interval.ts'
import type { ReasoningTask } from '../src/core/tasks/task.ts'
import { benchPolicy, scoreOwn } from './bench-policy.ts'
import {
  CURVE_PER_FAMILY,
  evalDifficulties,
  evalFamilies,
  heldOutModel,
  loadBenchModel,
  PEERS,
  type ArmResult,
  type ArmSpec,
} from './swarm-vs-solo-arms.ts'

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '') as ArmSpec
  const { arm, seed, rounds, evalEvery, learning } = spec
  const replay = spec.replay && (JSON.parse(readFileSync(spec.replay, 'utf8')) as ArmResult).choices
  const started = performance.now()
  const model = loadBenchModel(spec.model)
  const score: Scorer = async (task, c, eos) =>
    scoreOwn(
      task as ReasoningTask,
      c.text,
      eos ? c.tokenIds.length : undefined,
      learning.sampling.maxNewTokens,
    )

  // the swarm shares one hub; solo peers each get their own, so nobody hears them
  const swarmHub = createMemoryHub()
  // one swarm id per seed, not per arm: every arm's peers draw the same tasks every round
  const swarmId = `seed-${seed}`.padEnd(64, '0')
  const cells = learningCells(learning)
  const byKey = new Map(cells.map((c) => [cellKey(c), c]))
  const curricula = Array.from({ length: PEERS }, () => EMPTY_CURRICULUM)
  const choices: string[][][] = []
  // the free slots' cells: replayed, or the peer's curriculum's; logged either way
  const choose = (peer: number, round: number, count: number): Cell[] => {
    const chosen = replay
      ? replay[round]![peer]!.map((key) => byKey.get(key)!)
      : chooseCells(spec.curriculum ? curricula[peer]! : EMPTY_CURRICULUM, {
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
  // own completions sampled this round, and of those the ones that answer without a working first
  const sampled = { all: 0, bare: 0 }
  const countBare = (policy: ReproduciblePolicy): ReproduciblePolicy => {
    // the round loop samples a round's prompts in one call
    const sampleMany = policy.sampleMany!
    policy.sampleMany = async (requests) => {
      const groups = await sampleMany(requests)
      const completions = groups.flat()
      sampled.all += completions.length
      sampled.bare += completions.filter((c) => answersBare(c.text)).length
      return groups
    }
    return policy
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
      policy: countBare(
        benchPolicy(model, {
          sampling: learning.sampling,
          grpo: learning.grpo,
          epochs: spec.epochs,
          lrSchedule: spec.lrSchedule,
        }),
      ),
      score,
      // the window closes once every peer of the hub has published its round
      windowClosed: (round) => hub.allPublished(round),
    }
  })

  const difficulties = evalDifficulties(learning)
  const families = evalFamilies(learning)
  const result: ArmResult = {
    spec,
    weightsHash: model.manifest.weightsHash,
    reward: [],
    informative: [],
    evals: [],
    endCells: [],
    choices,
    successes: [],
    bare: [],
    seconds: 0,
  }
  const evaluate = (round: number) => {
    const end = round === rounds
    const perCell = end ? HELD_OUT_PER_CELL : Math.ceil(CURVE_PER_FAMILY / difficulties.length)
    const shares = peers.map((p, index) =>
      scoreReservedCells(heldOutModel(model, p.policy.state.params), difficulties, perCell, {
        share: { index, of: PEERS },
        families,
      }),
    )
    const pooled = poolCellScores(shares)
    const mix = stratifiedInterval(pooled)
    result.evals.push({
      round,
      pass: mix.pass,
      ci95: [mix.ci95[0], mix.ci95[1]],
      formatFailures: mix.formatFailures,
      tasks: mix.tasks,
    })
    if (end) result.endCells = pooled
  }
  for (let round = 0; round < rounds; round++) {
    const reports = await Promise.all(peers.map((p) => runRound(p, round)))
    result.reward.push(reports.map((r) => r.ownReward))
    result.informative.push(reports.map((r) => r.trainedOn.informative ?? 0))
    reports.forEach((r, i) => (curricula[i] = updateCurriculum(curricula[i]!, r.drawn ?? [])))
    const tally: Record<string, [number, number]> = {}
    for (const { cell, rewards } of reports.flatMap((r) => r.drawn ?? [])) {
      const t = (tally[cell] ??= [0, 0])
      t[0] += successesOf(rewards)
      t[1] += rewards.length
    }
    result.successes!.push(tally)
    result.bare!.push(sampled.bare / sampled.all)
    Object.assign(sampled, { all: 0, bare: 0 })
    if ((round + 1) % evalEvery === 0 || round + 1 === rounds) evaluate(round + 1)
    process.stderr.write(
      `${arm} seed ${seed} round ${round + 1}/${rounds}: reward ${(reports.reduce((a, r) => a + r.ownReward, 0) / PEERS).toFixed(3)}\n`,
    )
  }
  result.seconds = (performance.now() - started) / 1000
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

await main()
