// The reproducible GRPO step and sampler on the TS twin: the twin at a pinned old commit against this
// tree's, in one process (a process settles into one JIT mode and stays there, so two processes would
// not compare like with like), on real recipe batches of tabswarm-tiny. Batches: prompts from the
// swarm's task families rendered with the model's prompt template, G completions each sampled through
// the solver's own path (onnxruntime-web, Node, one thread) at the swarm's default sampling, rewarded by
// the verifiers, laid out by the swarm's buildRolloutBatch (right padding). Each step runs on both
// twins from the same state; the weights hash and the loss bits must agree. Trained tokens are the
// non-padding positions. Writes bench/results/step-speed.json and prints a table.
// The sampler runs --sampler-reps times on each twin, old and new alternating (the first runs pay the
// decode path's JIT warm-up); its ratio is the median of the pairs'.
//   node --import ./src/polyfills/register.js bench/step-speed.ts [--batches 5] [--groups 16] [--g 8]
//     [--sampler-tokens 48] [--sampler-reps 5] [--sampler-groups 8]
// The round's sampler: --sampler-groups prompts × G rows, one prompt after another on the old twin and
// on this tree's generateRows, and all at once with generateGroups (a peer's round on the twin).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { readCheckpoint, weightsHash } from '../src/compute/model/checkpoint.ts'
import { type ModelConfig } from '../src/compute/model/config.ts'
import type { Params } from '../src/compute/model/params.ts'
import { generate as solverGenerate } from '../src/peer/solver/generate.ts'
import { DEFAULT_LEARNING } from '../src/core/learning/learning-config.ts'
import { ADAM_MOMENTS } from '../src/compute/proof/work-params.ts'
import { buildRolloutBatch } from '../src/compute/model/rollout-batch.ts'
import { type TokenizedGroup } from '../src/core/learning/tokenized-group.ts'
import { generateReasoningTask } from '../src/core/tasks/generate-reasoning-task.ts'
import { REASONING_FAMILIES } from '../src/core/tasks/reasoning-families.ts'
import { verifyReasoning } from '../src/core/tasks/verify-reasoning.ts'
import { loadShippedSolver, readShipped } from './shipped-solver.ts'
import { fmt, percentile, positiveInt, printTable, writeResults, type Row } from './stats.ts'

/** The twin before this bench's speed-ups (issue 19 §1 was filed against it). */
const DEFAULT_OLD_COMMIT = 'dfb5429'

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '5' },
    groups: { type: 'string', default: '16' },
    g: { type: 'string', default: '8' },
    old: { type: 'string', default: DEFAULT_OLD_COMMIT },
    'sampler-tokens': { type: 'string', default: '48' },
    'sampler-reps': { type: 'string', default: '5' },
    'sampler-groups': { type: 'string', default: String(DEFAULT_LEARNING.tasksPerRound) },
  },
})
const batches = positiveInt(values.batches, 'batches')
const groups = positiveInt(values.groups, 'groups')
const g = positiveInt(values.g, 'g')
const samplerTokens = positiveInt(values['sampler-tokens'], 'sampler-tokens')
const samplerReps = positiveInt(values['sampler-reps'], 'sampler-reps')
const samplerGroups = positiveInt(values['sampler-groups'], 'sampler-groups')
/** The swarm's GRPO step: the default recipe's settings with the trainer's Adam moments. */
const GRPO = { ...DEFAULT_LEARNING.grpo, ...ADAM_MOMENTS }
const repo = fileURLToPath(new URL('../', import.meta.url))

/** The modules the bench drives, loaded from one source tree. */
interface Twin {
  grpoStepProgram: typeof import('../src/compute/model/grpo-step.ts').grpoStepProgram
  runSync: typeof import('../src/compute/model/program.ts').runSync
  ops: typeof import('../src/compute/model/twin-ops.ts').TWIN_OPS
  initTrainState: typeof import('../src/compute/model/train-step.ts').initTrainState
  generate: typeof import('../src/compute/model/generate.ts').generate
  /** The G rows batched (absent in the old twin, which decodes one row at a time). */
  generateRows?: typeof import('../src/compute/model/generate.ts').generateRows
  /** Several prompts' rows batched (absent before the round's prompts were sampled in one pass). */
  generateGroups?: typeof import('../src/compute/model/generate.ts').generateGroups
}

async function loadTwin(root: string): Promise<Twin> {
  // an old commit from before the layout move keeps the model in src/model/
  const at = (path: string) => {
    const before = path.replace('src/compute/model/', 'src/model/')
    return pathToFileURL(join(root, existsSync(join(root, path)) ? path : before)).href
  }
  const [grpo, train, gen, program, ops] = await Promise.all([
    import(at('src/compute/model/grpo-step.ts')) as Promise<
      typeof import('../src/compute/model/grpo-step.ts')
    >,
    import(at('src/compute/model/train-step.ts')) as Promise<
      typeof import('../src/compute/model/train-step.ts')
    >,
    import(at('src/compute/model/generate.ts')) as Promise<typeof import('../src/compute/model/generate.ts')>,
    import(at('src/compute/model/program.ts')) as Promise<typeof import('../src/compute/model/program.ts')>,
    import(at('src/compute/model/twin-ops.ts')) as Promise<typeof import('../src/compute/model/twin-ops.ts')>,
  ])
  return {
    grpoStepProgram: grpo.grpoStepProgram,
    runSync: program.runSync,
    ops: ops.TWIN_OPS,
    initTrainState: train.initTrainState,
    generate: gen.generate,
    generateRows: gen.generateRows,
    generateGroups: gen.generateGroups,
  }
}

/** The old twin's sources, extracted from git into a temporary folder (never kept in the tree). */
function extractOld(commit: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'step-speed-old-'))
  // package.json too: its "type": "module" makes Node load the extracted .ts files as ES modules
  const archive = execFileSync('git', ['archive', commit, 'src', 'package.json'], {
    cwd: repo,
    maxBuffer: 1 << 30,
  })
  execFileSync('tar', ['-x', '-C', dir], { input: archive })
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'))
  return dir
}

interface RecipeBatch {
  groups: TokenizedGroup[]
  label: string
}

/** `count` batches of `groups` tasks × G completions, sampled by the solver at the swarm's defaults. */
async function recipeBatches(count: number): Promise<RecipeBatch[]> {
  const { tokenizer, manifest, eos, decoder, decode } = await loadShippedSolver()
  const out: RecipeBatch[] = []
  for (let b = 0; b < count; b++) {
    const batch: TokenizedGroup[] = []
    // difficulty 2 in odd batches: longer prompts and completions, a different padding share
    const difficulty = b % 2 === 0 ? 1 : 2
    for (let i = 0; i < groups; i++) {
      const family = REASONING_FAMILIES[(b * groups + i) % REASONING_FAMILIES.length]!
      const task = generateReasoningTask(family.name, difficulty, 2_000_000 + b * groups + i)
      const promptIds = tokenizer.encode(manifest.promptTemplate.replace('{prompt}', task.prompt))
      const sampled = await solverGenerate(decoder, {
        promptIds,
        eosIds: [eos],
        decode,
        samples: g,
        sampling: { ...DEFAULT_LEARNING.sampling, seed: b * groups + i },
      })
      batch.push({
        promptIds,
        completions: sampled.completions.map((c) => c.tokenIds),
        rewards: sampled.completions.map((c) => (verifyReasoning(task, c.text).correct ? 1 : 0)),
      })
    }
    out.push({ groups: batch, label: `d${difficulty}` })
  }
  return out
}

interface StepRun {
  ms: number
  hash: string
  loss: number
  /** matmuls whose exact sum passes 2^53 (the old twin's two-limb path for a wide operand) */
  wideMatmuls: number
  matmuls: number
}

function maxAbs(data: Int32Array): number {
  let m = 0
  for (const v of data) m = Math.max(m, Math.abs(v))
  return m
}

/** The twin's ops with matmul counted: both twins pay the same O(size) check, far below the matmul's O(m·n·k). */
function countingOps(twin: Twin, counts: { wide: number; all: number }): Twin['ops'] {
  const matmul: Twin['ops']['matmul'] = (a, b, options) => {
    const k = options?.transA ? a.shape[0]! : a.shape[1]!
    counts.all++
    if (k * maxAbs(a.data) * maxAbs(b.data) > 2 ** 53) counts.wide++
    return twin.ops.matmul(a, b, options)
  }
  return { ...twin.ops, matmul }
}

function timeStep(twin: Twin, config: ModelConfig, params: Params, batch: RecipeBatch, eos: number): StepRun {
  const rollout = buildRolloutBatch(batch.groups, eos, config.maxSeqLen)
  const state = twin.initTrainState(config, params)
  const counts = { wide: 0, all: 0 }
  const ops = countingOps(twin, counts)
  const t0 = performance.now()
  const step = twin.runSync(twin.grpoStepProgram(config, state, rollout, undefined, GRPO), ops)
  const ms = performance.now() - t0
  return {
    ms,
    hash: weightsHash(config, step.state.params),
    loss: step.loss.data[0]!,
    wideMatmuls: counts.wide,
    matmuls: counts.all,
  }
}

async function main(): Promise<void> {
  const { config, params } = readCheckpoint(readShipped('model.safetensors'))
  const eos = config.vocabSize - 1
  const oldRoot = extractOld(values.old)
  try {
    const [oldTwin, newTwin] = await Promise.all([loadTwin(oldRoot), loadTwin(repo)])
    console.error(`sampling ${batches} batches of ${groups} groups × G = ${g} with onnxruntime-web …`)
    const recipe = await recipeBatches(batches)
    const rows: Row[] = []
    const steps = []
    for (const [i, batch] of recipe.entries()) {
      const layout = buildRolloutBatch(batch.groups, eos, config.maxSeqLen)
      const positions = layout.inputs.batch * layout.inputs.seqLen
      // trained tokens: the rows' real tokens (prompt + completion), not the right padding
      const real = batch.groups.reduce(
        (n, grp) =>
          n +
          grp.completions.reduce(
            (m, c) => m + Math.min(grp.promptIds.length + c.length, config.maxSeqLen),
            0,
          ),
        0,
      )
      // alternate which twin goes first, so a noisy neighbour does not always hit the same one
      const [first, second] = i % 2 === 0 ? [oldTwin, newTwin] : [newTwin, oldTwin]
      const a = timeStep(first, config, params, batch, eos)
      const b = timeStep(second, config, params, batch, eos)
      const [oldRun, newRun] = i % 2 === 0 ? [a, b] : [b, a]
      const same = oldRun.hash === newRun.hash && oldRun.loss === newRun.loss
      const entry = {
        batch: i,
        label: batch.label,
        rows: layout.inputs.batch,
        seqLen: layout.inputs.seqLen,
        trainedTokens: real,
        paddingShare: 1 - real / positions,
        oldMs: oldRun.ms,
        newMs: newRun.ms,
        oldTokensPerSecond: real / (oldRun.ms / 1000),
        newTokensPerSecond: real / (newRun.ms / 1000),
        ratio: oldRun.ms / newRun.ms,
        weightsHash: newRun.hash,
        lossBits: newRun.loss,
        wideMatmuls: newRun.wideMatmuls,
        matmuls: newRun.matmuls,
        sameBits: same,
      }
      steps.push(entry)
      console.error(
        `batch ${i} (${batch.label}, ${entry.rows}×${entry.seqLen}): old ${fmt(oldRun.ms / 1000, 2)} s, new ${fmt(newRun.ms / 1000, 2)} s, ×${fmt(entry.ratio, 2)}, same bits ${same}`,
      )
      rows.push({
        metric: `batch ${i} ${batch.label} ${entry.rows}×${entry.seqLen}, pad ${fmt(100 * entry.paddingShare)}%, ${entry.wideMatmuls} wide matmuls`,
        value: `${fmt(entry.newTokensPerSecond, 0)} tok/s`,
        baseline: `${fmt(entry.oldTokensPerSecond, 0)} tok/s`,
        ratio: `×${fmt(entry.ratio, 2)}${same ? '' : ' BITS DIFFER'}`,
      })
    }

    // the sampler: one prompt, G rows of prefill + KV-cached decode (the old twin one row at a time, this
    // tree's batched over the rows), the same Philox draws on both twins
    const promptIds = Int32Array.from(recipe[0]!.groups[0]!.promptIds)
    const sampleOptions = {
      maxNewTokens: samplerTokens,
      sampling: { temperatureQ16: 2 ** 16, topK: 0, topPQ30: 2 ** 30 },
      seed: [19, 1] as const,
    }
    const rowSteps = Array.from({ length: g }, (_, row) => row)
    const sampler = (twin: Twin) => {
      const t0 = performance.now()
      const generations = twin.generateRows
        ? twin.generateRows(config, params, promptIds, sampleOptions, rowSteps)
        : rowSteps.map((step) => twin.generate(config, params, promptIds, { ...sampleOptions, step }))
      return { ms: performance.now() - t0, tokens: generations.map((gen) => [...gen.tokens]) }
    }
    const pairs = Array.from({ length: samplerReps }, () => [sampler(oldTwin), sampler(newTwin)] as const)
    const sampled = pairs[0]![1].tokens.reduce((n, t) => n + t.length, 0)
    const sameTokens = pairs.every(
      ([o, n]) =>
        JSON.stringify(o.tokens) === JSON.stringify(n.tokens) &&
        JSON.stringify(n.tokens) === JSON.stringify(pairs[0]![1].tokens),
    )
    const perSecond = (ms: number) => sampled / (ms / 1000)
    const samplerRatios = pairs.map(([o, n]) => o.ms / n.ms)
    const samplerResult = {
      rows: g,
      promptTokens: promptIds.length,
      tokens: sampled,
      reps: samplerReps,
      oldMs: pairs.map(([o]) => o.ms),
      newMs: pairs.map(([, n]) => n.ms),
      oldTokensPerSecond: perSecond(
        percentile(
          pairs.map(([o]) => o.ms),
          50,
        ),
      ),
      newTokensPerSecond: perSecond(
        percentile(
          pairs.map(([, n]) => n.ms),
          50,
        ),
      ),
      ratio: percentile(samplerRatios, 50),
      ratios: samplerRatios,
      sameTokens,
    }
    rows.push({
      metric: `sampler: ${g} rows × ${samplerTokens} tokens, prompt ${promptIds.length}, median of ${samplerReps}`,
      value: `${fmt(samplerResult.newTokensPerSecond, 0)} tok/s`,
      baseline: `${fmt(samplerResult.oldTokensPerSecond, 0)} tok/s`,
      ratio: `×${fmt(samplerResult.ratio, 2)} (${fmt(Math.min(...samplerRatios), 2)}–${fmt(Math.max(...samplerRatios), 2)})${sameTokens ? '' : ' TOKENS DIFFER'}`,
    })

    // the sampler across a round's prompts: --sampler-groups prompts × G rows, as a peer samples a round.
    // The old twin and this tree's generateRows take one prompt after another; generateGroups decodes
    // every prompt's rows in one pass. Tokens must agree on all three.
    const roundPrompts = recipe[0]!.groups.slice(0, samplerGroups).map((grp, i) => ({
      prompt: Int32Array.from(grp.promptIds),
      seed: [19, i] as const,
      steps: rowSteps,
    }))
    const perPrompt = (twin: Twin) => {
      const t0 = performance.now()
      const tokens = roundPrompts.map(({ prompt, seed }) => {
        const options = { ...sampleOptions, seed }
        const generations = twin.generateRows
          ? twin.generateRows(config, params, prompt, options, rowSteps)
          : rowSteps.map((step) => twin.generate(config, params, prompt, { ...options, step }))
        return generations.map((gen) => [...gen.tokens])
      })
      return { ms: performance.now() - t0, tokens }
    }
    const grouped = () => {
      const t0 = performance.now()
      const generations = newTwin.generateGroups!(config, params, roundPrompts, sampleOptions)
      return {
        ms: performance.now() - t0,
        tokens: generations.map((rows) => rows.map((gen) => [...gen.tokens])),
      }
    }
    const triples = Array.from(
      { length: samplerReps },
      () => [perPrompt(oldTwin), perPrompt(newTwin), grouped()] as const,
    )
    const roundTokens = triples[0]![2].tokens.flat().reduce((n, t) => n + t.length, 0)
    const reference = JSON.stringify(triples[0]![2].tokens)
    const roundSame = triples.every((runs) => runs.every((r) => JSON.stringify(r.tokens) === reference))
    const median = (pick: (t: (typeof triples)[number]) => number) => percentile(triples.map(pick), 50)
    const roundSampler = {
      prompts: roundPrompts.length,
      rows: g,
      promptTokens: roundPrompts.map((p) => p.prompt.length),
      tokens: roundTokens,
      reps: samplerReps,
      oldMs: triples.map(([o]) => o.ms),
      perPromptMs: triples.map(([, n]) => n.ms),
      groupedMs: triples.map(([, , m]) => m.ms),
      groupedTokensPerSecond: roundTokens / (median(([, , m]) => m.ms) / 1000),
      ratioVsOld: median(([o, , m]) => o.ms / m.ms),
      ratioVsPerPrompt: median(([, n, m]) => n.ms / m.ms),
      sameTokens: roundSame,
    }
    rows.push({
      metric: `sampler, a round: ${roundPrompts.length} prompts × ${g} rows, generateGroups vs generateRows per prompt (this tree)`,
      value: `${fmt(roundSampler.groupedTokensPerSecond, 0)} tok/s`,
      baseline: `${fmt(roundTokens / (median(([, n]) => n.ms) / 1000), 0)} tok/s`,
      ratio: `×${fmt(roundSampler.ratioVsPerPrompt, 2)}${roundSame ? '' : ' TOKENS DIFFER'}`,
    })
    rows.push({
      metric: `sampler, a round: generateGroups vs ${values.old} per prompt`,
      value: `${fmt(roundSampler.groupedTokensPerSecond, 0)} tok/s`,
      baseline: `${fmt(roundTokens / (median(([o]) => o.ms) / 1000), 0)} tok/s`,
      ratio: `×${fmt(roundSampler.ratioVsOld, 2)}`,
    })

    const ratios = steps.map((s) => s.ratio)
    const summary = {
      ratioMedian: percentile(ratios, 50),
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
      paddingShare:
        1 - steps.reduce((n, s) => n + s.trainedTokens, 0) / steps.reduce((n, s) => n + s.rows * s.seqLen, 0),
      allSameBits: steps.every((s) => s.sameBits),
    }
    rows.push({
      metric: 'step ratio median (min–max)',
      value: `×${fmt(summary.ratioMedian, 2)}`,
      baseline: '—',
      ratio: `${fmt(summary.ratioMin, 2)}–${fmt(summary.ratioMax, 2)}`,
    })
    printTable(
      `GRPO step on the twin, tabswarm-tiny, ${groups} groups × G = ${g}: this tree vs ${values.old} (one process, one thread)`,
      rows,
    )
    await writeResults(fileURLToPath(new URL('./results/step-speed.json', import.meta.url)), {
      oldCommit: values.old,
      groups,
      g,
      sampling: DEFAULT_LEARNING.sampling,
      grpo: GRPO,
      steps,
      summary,
      sampler: samplerResult,
      roundSampler,
    })
    if (!summary.allSameBits || !sameTokens || !roundSame) process.exitCode = 1
  } finally {
    rmSync(oldRoot, { recursive: true, force: true })
  }
}

await main()
