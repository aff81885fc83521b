import { checkpointHash, readCheckpoint, type Checkpoint } from '../model/checkpoint.ts'
import { configHash } from '../model/config.ts'
import type { Program, ProgramRunner } from '../model/program.ts'
import type { TrainState } from '../model/train-step.ts'
import { runOnTwin } from '../model/twin-ops.ts'
import { fromBase64 } from './base64.ts'
import { intList, readBatch } from './batch-inputs.ts'
import { readGrpoRollout } from './grpo-inputs.ts'
import { jsonHash } from '../../core/protocol/digest.ts'
import { parseInputsFile, type InputsFile } from '../../core/protocol/inputs-file.ts'
import { modelConfigHash } from './models.ts'
import { readOptimizer } from './optimizer-state.ts'
import { trainedGroupsFailure } from './trained-groups.ts'
import { fail, OK, validate, type Verdict } from '../../core/protocol/receipt.ts'
import type { Receipt, ReceiptBody } from '../../core/protocol/receipt-schema.ts'
import {
  describeWork,
  generationWork,
  grpoStepWork,
  trainingStepWork,
  type WorkOutcome,
} from './receipt-work.ts'
import { firstDivergence, traceRoot, type Divergence } from './trace.ts'
import { grpoParams, generationParams, trainingParams } from './work-params.ts'

export type VerifyVerdict = Verdict | (Verdict & { readonly divergence: Divergence })

const short = (hash?: string) => (hash ? hash.slice(0, 12) : 'nothing')

/** The state a weight-changing step starts from: the checkpoint's weights and the side file's optimizer. */
function trainStateOf(receipt: Receipt, file: InputsFile, model: Checkpoint): TrainState {
  if (file.optimizer === undefined)
    throw new RangeError(`inputs file: a ${receipt.kind} needs its optimizer state`)
  return { params: model.params, optimizer: readOptimizer(model.config, fromBase64(file.optimizer)) }
}

/** The receipt's work again, from the side file and the receipt's params and seed. */
function rerun(receipt: Receipt, file: InputsFile, model: Checkpoint): Program<WorkOutcome> {
  const { inputs } = file
  switch (receipt.kind) {
    case 'generation': {
      if (!receipt.seed) throw new RangeError('seed: a generation needs a seed')
      const prompt = intList(inputs.prompt, 'prompt')
      return generationWork(
        model.config,
        model.params,
        prompt,
        generationParams(receipt.params),
        receipt.seed,
      )
    }
    case 'training-step': {
      const params = trainingParams(receipt.params)
      const { batch, targets } = readBatch(inputs)
      return trainingStepWork(model.config, trainStateOf(receipt, file, model), batch, targets, params)
    }
    case 'grpo-step': {
      const params = grpoParams(receipt.params)
      const rollout = readGrpoRollout(inputs)
      return grpoStepWork(model.config, trainStateOf(receipt, file, model), rollout, params)
    }
    default:
      throw new RangeError(`kind: ${receipt.kind} receipts cannot be re-executed yet`)
  }
}

/** The field a re-execution error is about: receipt fields lead their messages; the rest is the side file's. */
function errorVerdict(error: unknown): Verdict {
  const message = error instanceof Error ? error.message : String(error)
  const field = /^(params|seed|kind|advantages)[:.]/.exec(message)?.[1] ?? 'inputs'
  return fail(
    field,
    field === 'inputs' && !message.startsWith('inputs file') ? `inputs file: ${message}` : message,
  )
}

/**
 * Re-executes a receipt's work (on the TS twin unless `runner` says otherwise: the WGSL kernels give
 * the same bits) and compares every hashed field with what the re-execution gives, in the order a
 * dispute would: what ran (model, weights, kernels, inputs, the groups a GRPO step names), then the
 * trace (naming the first divergent op against the prover's trace), then the outputs and the chain.
 * `kernelsHash` is this verifier's own (kernels-hash-node.ts or kernels-hash-bundled.ts).
 */
export async function verify(
  receiptValue: unknown,
  inputsValue: unknown,
  kernelsHash: string,
  runner: ProgramRunner = runOnTwin,
): Promise<VerifyVerdict> {
  const valid = await validate(receiptValue)
  if (!valid.ok) return valid
  const receipt = receiptValue as Receipt
  let file: InputsFile
  let model: Checkpoint
  let checkpoint: Uint8Array
  let outcome: WorkOutcome
  try {
    file = parseInputsFile(inputsValue)
    if (file.kind !== receipt.kind)
      return fail('kind', `kind is ${receipt.kind} but the inputs are for ${file.kind}`)
    checkpoint = fromBase64(file.checkpoint)
    model = readCheckpoint(checkpoint)
    if (configHash(model.config) !== receipt.configHash)
      return fail('configHash', "configHash is not the hash of the checkpoint's config")
    if (modelConfigHash(receipt.modelId) !== receipt.configHash)
      return fail('modelId', `modelId ${receipt.modelId} is not a known model with this config`)
    if (checkpointHash(checkpoint) !== receipt.weightsHash)
      return fail('weightsHash', 'weightsHash is not the hash of the checkpoint in the inputs file')
    if (receipt.kernelsHash !== kernelsHash)
      return fail(
        'kernelsHash',
        `kernelsHash ${short(receipt.kernelsHash)} is not this verifier's kernels (${short(kernelsHash)})`,
      )
    if (receipt.opSet !== 'reproducible')
      return fail('opSet', `the TS twin re-executes the reproducible op set, not ${receipt.opSet}`)
    outcome = await runner(rerun(receipt, file, model))
  } catch (error) {
    return errorVerdict(error)
  }
  const expected = describeWork(outcome, {
    modelId: receipt.modelId,
    config: model.config,
    weightsHash: receipt.weightsHash,
    kernelsHash,
    chain: file.chain,
  })
  const differs = (field: keyof ReceiptBody) =>
    jsonHash(expected[field as keyof typeof expected] ?? null) !== jsonHash(receipt[field] ?? null)

  if (differs('inputHash'))
    return fail('inputHash', 'inputHash is not the hash of the inputs in the inputs file')
  if (receipt.kind === 'grpo-step') {
    const groups = trainedGroupsFailure(receipt.trainedGroups, readGrpoRollout(file.inputs), file.groupTasks)
    if (groups) return { ok: false, ...groups }
  }
  if (differs('seed'))
    return fail('seed', `seed must be ${JSON.stringify(expected.seed)} for ${receipt.kind} work`)
  const traced = traceVerdict(receipt, file, outcome)
  if (!traced.ok) return traced
  if (file.outputs && jsonHash(file.outputs) !== receipt.outputHash)
    return fail('outputHash', 'outputHash is not the hash of the outputs in the inputs file')
  if (differs('outputHash'))
    return fail('outputHash', `re-executed outputs differ: ${JSON.stringify(outcome.outputs).slice(0, 200)}`)
  for (const field of ['tokenCount', 'finishReason', 'chainLength', 'chainTip'] as const)
    if (differs(field))
      return fail(
        field,
        `${field} is ${String(receipt[field])}, re-execution gives ${String(expected[field])}`,
      )
  return OK
}

/** Compares traces: the prover's (when the side file has it) must hash to traceRoot, then op by op. */
function traceVerdict(receipt: Receipt, file: InputsFile, outcome: WorkOutcome): VerifyVerdict {
  if (!file.trace) {
    return traceRoot(outcome.trace) === receipt.traceRoot
      ? OK
      : fail(
          'traceRoot',
          'traceRoot differs from the re-execution (no trace in the inputs file to name the op)',
        )
  }
  if (traceRoot(file.trace) !== receipt.traceRoot)
    return fail('traceRoot', 'traceRoot is not the root of the trace in the inputs file')
  const divergence = firstDivergence(file.trace, outcome.trace)
  if (!divergence) return OK
  const { index, op, claimed, recomputed } = divergence
  return {
    ...(fail(
      'traceRoot',
      `first divergent op #${index} ${op}: receipt ${short(claimed?.hash)}` +
        (claimed && claimed.op !== op ? ` (${claimed.op})` : '') +
        `, re-execution ${short(recomputed?.hash)}`,
    ) as Verdict & { ok: false }),
    divergence,
  }
}
