import { generateKeyPair } from '@libp2p/crypto/keys'
import { describe, expect, it } from 'vitest'
import { qtensor } from '../../compute/kernels/ref/tensor.ts'
import { checkpointHash } from '../../compute/model/checkpoint.ts'
import type { Params } from '../../compute/model/params.ts'
import { fromBase64, toBase64 } from '../../compute/proof/base64.ts'
import { initTrainState } from '../../compute/model/train-step.ts'
import {
  DEMO_GROUPS,
  DEMO_GRPO,
  DEMO_GRPO_KL,
  DEMO_MODEL,
  DEMO_PAD_ID,
  demoGeneration,
  demoGrpoKlStep,
  demoGrpoStep,
  demoTrainingStep,
} from '../../host/demo/demo-receipts.ts'
import { HASH_HEX, jsonHash } from './digest.ts'
import { advantagesOfRewards, rolloutFromGroups } from '../../compute/proof/grpo-inputs.ts'
import { genesis } from './hash-chain.ts'
import type { InputsFile } from './inputs-file.ts'
import { kernelsHashFromDisk } from '../../compute/proof/kernels-hash-node.ts'
import { impliedChainTip, sealReceipt, validate } from './receipt.ts'
import { domainSigner } from '../identity/signing-domains.ts'
import { BODY_FIELDS, type Json, type JsonObject, type Receipt, type ReceiptBody } from './receipt-schema.ts'
import { buildGrpoStepReceipt, type MadeReceipt } from '../../compute/proof/receipt-builders.ts'
import { verify, type VerifyVerdict } from '../../compute/proof/verify.ts'
import { rolloutGroupHash } from '../learning/group-hash.ts'

const key = await generateKeyPair('Ed25519')
const kernelsHash = kernelsHashFromDisk()
const made: Record<string, MadeReceipt> = {
  generation: await demoGeneration(key, kernelsHash),
  'training-step': await demoTrainingStep(key, kernelsHash),
  'grpo-step': await demoGrpoStep(key, kernelsHash),
  'grpo-step with a KL penalty': await demoGrpoKlStep(key, kernelsHash),
}

/** A different value of the same type: the smallest lie about a field. */
function tampered(value: Json | undefined): Json {
  if (typeof value === 'string')
    return HASH_HEX.test(value) ? value.slice(0, -1) + (value.endsWith('0') ? '1' : '0') : value + 'x'
  if (typeof value === 'number') return value + 1
  if (value === null) return [0, 0]
  // a list of records (trainedGroups): its first record's last field changes
  if (Array.isArray(value) && typeof value[0] === 'object' && value[0] && !Array.isArray(value[0])) {
    const [k, v] = Object.entries(value[0]).at(-1)!
    return [{ ...value[0], [k]: tampered(v) }, ...value.slice(1)]
  }
  if (Array.isArray(value)) return [Number(value[0]) + 1, value[1]!]
  if (typeof value === 'object' && value) {
    const [k, v] = Object.entries(value)[0]!
    return { ...value, [k]: typeof v === 'number' ? v * 2 + 1 : 1 }
  }
  throw new Error(`cannot tamper with ${String(value)}`)
}

/**
 * A receipt with `changes`, re-hashed and re-signed by the same key: a consistent lie by the prover,
 * who also redoes the chain tip wherever the receipt fixes it.
 */
function reseal(receipt: Receipt, changes: Partial<Record<keyof ReceiptBody, Json>>): Promise<Receipt> {
  const body = { ...receipt, ...changes } as ReceiptBody
  const chainTip = 'chainTip' in changes ? body.chainTip : (impliedChainTip(body) ?? body.chainTip)
  return sealReceipt({ ...body, chainTip }, domainSigner(key), receipt.info)
}

async function check(receipt: unknown, inputs: InputsFile): Promise<VerifyVerdict> {
  return verify(receipt, inputs, kernelsHash)
}

const failure = (v: VerifyVerdict) => (v.ok ? 'ok' : `${v.field}: ${v.message}`)

describe.each(Object.keys(made))('a %s receipt', (kind) => {
  const { receipt, inputs } = made[kind]!
  const fields = BODY_FIELDS.filter((f) => receipt[f] !== undefined)

  it('validates and verifies', async () => {
    expect(await validate(receipt)).toEqual({ ok: true })
    expect(await check(receipt, inputs)).toEqual({ ok: true })
    expect(await check(JSON.parse(JSON.stringify(receipt)), JSON.parse(JSON.stringify(inputs)))).toEqual({
      ok: true,
    })
  })

  it.each([...fields, 'receiptHash', 'signature'] as const)(
    'fails validation when %s changes',
    async (field) => {
      const verdict = await validate({ ...receipt, [field]: tampered(receipt[field] as Json) })
      expect(verdict.ok).toBe(false)
      // a field whose own check fails names itself (params: its hash); any other change breaks receiptHash
      expect(failure(verdict)).toMatch(new RegExp(`^(${field}|${field}Hash|receiptHash): `))
    },
  )

  it.each(fields)('names %s when the prover re-signs a lie about it', async (field) => {
    const lie = await reseal(receipt, { [field]: tampered(receipt[field] as Json) })
    const verdict = await check(lie, inputs)
    expect(verdict.ok).toBe(false)
    // the message names the field, or the first divergent op for values that steer the work
    expect(failure(verdict)).toMatch(new RegExp(`^${field}(Hash)?: |^traceRoot: first divergent op`))
  })

  it('ignores info, refuses a forged signature', async () => {
    expect(await check({ ...receipt, info: { device: 'anything' } }, inputs)).toEqual({ ok: true })
    const other = await generateKeyPair('Ed25519')
    const forged = await sealReceipt(receipt, domainSigner(other))
    expect(forged.receiptHash).toBe(receipt.receiptHash)
    expect(failure(await validate(forged))).toMatch(/^signature: /)
  })

  it('names weightsHash when one bit of the checkpoint changes', async () => {
    const bytes = fromBase64(inputs.checkpoint)
    bytes[bytes.length - 1]! ^= 1
    expect(failure(await check(receipt, { ...inputs, checkpoint: toBase64(bytes) }))).toMatch(
      /^weightsHash: /,
    )
  })

  it('verifies from the receipt root alone when the side file has no trace', async () => {
    expect(await check(receipt, { ...inputs, trace: undefined })).toEqual({ ok: true })
  })
})

describe('verify re-executes', () => {
  it('and names outputHash when one bit of an output changes', async () => {
    for (const { receipt, inputs } of Object.values(made)) {
      const outputs = structuredClone(inputs.outputs!)
      if (Array.isArray(outputs.tokens)) outputs.tokens[0] = Number(outputs.tokens[0]) ^ 1
      else outputs.weightsHash = tampered(outputs.weightsHash)
      const lie = await reseal(receipt, { outputHash: jsonHash(outputs) })
      expect(failure(await check(lie, { ...inputs, outputs }))).toMatch(
        /^outputHash: re-executed outputs differ/,
      )
    }
  })

  it('and names the first divergent op when the prover computed with one weight bit changed', async () => {
    const flipped: Params = new Map(
      [...DEMO_MODEL.params].map(([n, t]) => [n, qtensor(t.shape, t.exp, t.data.slice())]),
    )
    flipped.get('model.layers.1.mlp.gate_proj.weight')!.data[5]! ^= 1 << 18
    const { receipt, inputs } = await demoGeneration(key, kernelsHash, { ...DEMO_MODEL, params: flipped })
    // the prover claims the true weights but ran with the flipped ones
    const honest = made.generation!
    const lie = await reseal(receipt, {
      weightsHash: honest.receipt.weightsHash,
      chainTip: honest.receipt.chainTip,
    })
    const verdict = await check(lie, {
      ...inputs,
      checkpoint: honest.inputs.checkpoint,
      chain: honest.inputs.chain,
    })
    expect(failure(verdict)).toMatch(/^traceRoot: first divergent op #\d+ token0\/layers\.1\.mlp\.gate_proj/)
    expect(!verdict.ok && 'divergence' in verdict && verdict.divergence.op).toBe(
      'token0/layers.1.mlp.gate_proj',
    )
  })

  it('and finds the op a consistent lie about params moves', async () => {
    const { receipt, inputs } = made['training-step']!
    const params = { ...receipt.params, lr: 2e-2 }
    const lie = await reseal(receipt, { params, paramsHash: jsonHash(params) })
    expect(failure(await check(lie, inputs))).toMatch(
      /first divergent op #\d+ adam\.model\.embed_tokens\.weight\.w/,
    )
  })

  it('and checks the chain against the position the side file gives', async () => {
    const { receipt, inputs } = made['training-step']!
    expect(receipt.chainLength).toBe(1)
    const elsewhere = { tip: genesis('cd'.repeat(32)).tip, length: 0 }
    expect(failure(await check(receipt, { ...inputs, chain: elsewhere }))).toMatch(/^chainTip: /)
    expect(checkpointHash(fromBase64(inputs.checkpoint))).toBe(receipt.weightsHash)
  })
})

describe('a grpo-step receipt', () => {
  const { receipt, inputs } = made['grpo-step']!
  const sideInputs = inputs.inputs as Record<string, Json[]>

  /** The side file with `changes` to its inputs, and the receipt re-signed over their hash. */
  async function lieAboutInputs(changes: Record<string, Json>) {
    const lied = { ...inputs, inputs: { ...inputs.inputs, ...changes } }
    return { lie: await reseal(receipt, { inputHash: jsonHash(lied.inputs) }), lied }
  }

  it('carries rewards, group sizes and the fixed-point advantages they give, and extends the chain', () => {
    expect(Object.keys(inputs.inputs).sort()).toEqual([
      'advantages',
      'batch',
      'groupSizes',
      'ids',
      'mask',
      'optimizerHash',
      'rewards',
      'seqLen',
      'targets',
    ])
    expect(sideInputs.rewards).toEqual(DEMO_GROUPS.flatMap((g) => g.rewards))
    expect(sideInputs.advantages).toEqual(advantagesOfRewards([1, 0, 0.25, 0, 0, 1], [3, 3]))
    expect(sideInputs.advantages!.every((a) => a !== 0)).toBe(true)
    expect(receipt.params).toEqual({ ...DEMO_GRPO })
    expect(receipt.chainLength).toBe(1)
    // on-policy: the old policy's log-probs are the step's own traced forward, never read from the prover
    expect(inputs.trace![0]!.op).toMatch(/^forward\//)
    expect(inputs.trace!.map((e) => e.op)).toContain('logprobs')
  })

  it('names advantages when the prover trained on advantages its rewards do not give', async () => {
    const rollout = rolloutFromGroups(DEMO_GROUPS, DEMO_PAD_ID, DEMO_MODEL.config.maxSeqLen)
    const inflated = {
      ...rollout.batch,
      advantages: rollout.batch.advantages.map((a, i) => (i === 4 ? 3 * a : a)),
    }
    const { optimizer } = initTrainState(DEMO_MODEL.config, DEMO_MODEL.params)
    const lie = await buildGrpoStepReceipt(
      DEMO_MODEL,
      optimizer,
      { ...rollout, batch: inflated },
      DEMO_GRPO,
      {
        key,
        kernelsHash,
      },
    )
    expect(await validate(lie.receipt)).toEqual({ ok: true })
    expect(failure(await check(lie.receipt, lie.inputs))).toMatch(
      /^advantages: advantages: row 4 has -2223894·2\^-20 but the rewards of its group give -741298·2\^-20$/,
    )
  })

  it('names advantages when one reward changes and the advantages do not', async () => {
    const rewards = [...sideInputs.rewards!]
    rewards[5] = 0.5
    const { lie, lied } = await lieAboutInputs({ rewards })
    expect(failure(await check(lie, lied))).toMatch(
      /^advantages: advantages: row 3 has -741298·2\^-20 but the rewards/,
    )
  })

  it('names the loss op when a reward and its advantages change but the step ran on the old ones', async () => {
    const rewards = [...sideInputs.rewards!]
    rewards[5] = 0.5
    const { lie, lied } = await lieAboutInputs({
      rewards,
      advantages: advantagesOfRewards(rewards as number[], [3, 3]),
    })
    const verdict = await check(lie, lied)
    expect(failure(verdict)).toMatch(/^traceRoot: first divergent op #\d+ loss: /)
    expect(!verdict.ok && 'divergence' in verdict && verdict.divergence.op).toBe('loss')
  })

  it('names the first forward op when one prompt token changes', async () => {
    const ids = [...sideInputs.ids!]
    ids[0] = Number(ids[0]) + 1
    const { lie, lied } = await lieAboutInputs({ ids })
    expect(failure(await check(lie, lied))).toMatch(/^traceRoot: first divergent op #0 forward\/embed/)
  })

  it('refuses a completion token whose loss target is not the token itself', async () => {
    const ids = [...sideInputs.ids!]
    const at = (sideInputs.mask as number[]).indexOf(1) + 1
    ids[at] = Number(ids[at]) + 1
    const { lie, lied } = await lieAboutInputs({ ids })
    expect(failure(await check(lie, lied))).toMatch(
      new RegExp(`^inputs: inputs file: inputs.targets\\[${at - 1}\\] .* not the next token`),
    )
  })

  it('names the first divergent op when the prover computed with one weight bit changed', async () => {
    const flipped: Params = new Map(
      [...DEMO_MODEL.params].map(([n, t]) => [n, qtensor(t.shape, t.exp, t.data.slice())]),
    )
    flipped.get('model.layers.1.mlp.gate_proj.weight')!.data[5]! ^= 1 << 18
    const { receipt: bent, inputs: bentInputs } = await demoGrpoStep(key, kernelsHash, {
      ...DEMO_MODEL,
      params: flipped,
    })
    // the prover claims the true weights (and the chain they start) but ran with the flipped ones
    const lie = await reseal(bent, { weightsHash: receipt.weightsHash })
    const verdict = await check(lie, { ...bentInputs, checkpoint: inputs.checkpoint, chain: inputs.chain })
    expect(failure(verdict)).toMatch(/^traceRoot: first divergent op #\d+ forward\/layers\.1\.mlp\.gate_proj/)
  })

  it('names the side file key that is malformed', async () => {
    const cases: [Record<string, Json>, RegExp][] = [
      [{ mask: [1] }, /inputs\.mask has 1 entries, the batch needs 42/],
      [{ groupSizes: [3, 2] }, /inputs\.groupSizes must be positive and add up to 6 rows/],
      [{ rewards: ['1', 0, 0, 0, 0, 1] }, /inputs\.rewards is not a list/],
    ]
    for (const [changes, message] of cases) {
      const { lie, lied } = await lieAboutInputs(changes)
      expect(failure(await check(lie, lied))).toMatch(message)
    }
    expect(failure(await check(receipt, { ...inputs, optimizer: undefined }))).toMatch(
      /^inputs: inputs file: a grpo-step needs its optimizer state/,
    )
  })
})

describe("a grpo-step receipt's trainedGroups", () => {
  const { receipt, inputs } = made['grpo-step']!
  const groups = receipt.trainedGroups!

  it('lists every group in batch order: its sender and rolloutGroupHash of it as trained', () => {
    expect(groups).toEqual(
      DEMO_GROUPS.map((g) => ({
        from: g.origin!.from,
        hash: rolloutGroupHash({
          taskId: g.origin!.taskId,
          completions: g.completions.map((tokenIds) => ({ tokenIds })),
        }),
      })),
    )
    expect(inputs.groupTasks).toEqual(DEMO_GROUPS.map((g) => g.origin!.taskId))
  })

  it('names the group when the prover re-signs a hash its rows do not give', async () => {
    const other = rolloutGroupHash({ taskId: inputs.groupTasks![1]!, completions: [{ tokenIds: [11, 2] }] })
    const lied = [groups[0]!, { ...groups[1]!, hash: other }]
    const lie = await reseal(receipt, { trainedGroups: lied as unknown as Json })
    expect(await validate(lie)).toEqual({ ok: true })
    expect(failure(await check(lie, inputs))).toMatch(
      /^trainedGroups: trainedGroups: group 1 \(from demo-peer-heard\) has hash [0-9a-f]{12}, but task [0-9a-f]{12} with the completion tokens of rows 3–5 gives [0-9a-f]{12}$/,
    )
  })

  it('names the group when the side file gives it another task than the one hashed', async () => {
    const groupTasks = [inputs.groupTasks![0]!, jsonHash('another task')]
    expect(failure(await check(receipt, { ...inputs, groupTasks }))).toMatch(/^trainedGroups: .*group 1 /)
  })

  it('refuses a list that leaves a group out or adds one', async () => {
    for (const trainedGroups of [groups.slice(1), [...groups, groups[0]!]]) {
      const lie = await reseal(receipt, { trainedGroups: trainedGroups as unknown as Json })
      expect(failure(await check(lie, inputs))).toBe(
        `trainedGroups: trainedGroups lists ${trainedGroups.length} groups, the step trained 2 (inputs.groupSizes)`,
      )
    }
  })

  it('needs the side file to name the group tasks, one per group', async () => {
    expect(failure(await check(receipt, { ...inputs, groupTasks: undefined }))).toMatch(
      /^inputs: inputs file: groupTasks is missing/,
    )
    expect(failure(await check(receipt, { ...inputs, groupTasks: inputs.groupTasks!.slice(1) }))).toBe(
      'inputs: inputs file: groupTasks has 1 task ids for 2 groups',
    )
  })

  it('is absent for groups without origins; the step, its inputs and its chain are the same', async () => {
    const plain = DEMO_GROUPS.map(({ origin: _, ...g }) => g)
    const rollout = rolloutFromGroups(plain, DEMO_PAD_ID, DEMO_MODEL.config.maxSeqLen)
    const { optimizer } = initTrainState(DEMO_MODEL.config, DEMO_MODEL.params)
    const made = await buildGrpoStepReceipt(DEMO_MODEL, optimizer, rollout, DEMO_GRPO, { key, kernelsHash })
    expect('trainedGroups' in made.receipt).toBe(false)
    expect(made.inputs.groupTasks).toBeUndefined()
    for (const field of ['inputHash', 'outputHash', 'traceRoot', 'chainTip'] as const)
      expect(made.receipt[field]).toBe(receipt[field])
    expect(await check(made.receipt, made.inputs)).toEqual({ ok: true })
    // a list on a receipt that had none is a hashed field changed
    expect(failure(await validate({ ...made.receipt, trainedGroups: groups }))).toMatch(/^receiptHash: /)
  })

  it('belongs to grpo-step receipts only, and needs every group named or none', async () => {
    const step = made['training-step']!.receipt
    expect(failure(await validate({ ...step, trainedGroups: groups }))).toBe(
      'trainedGroups: trainedGroups belongs to grpo-step receipts only, this one is training-step',
    )
    expect(() =>
      rolloutFromGroups([DEMO_GROUPS[0]!, { ...DEMO_GROUPS[1]!, origin: undefined }], DEMO_PAD_ID, 64),
    ).toThrow(/1 of 2 rollout groups name their origin/)
  })
})

describe('a grpo-step receipt with a KL penalty', () => {
  const { receipt, inputs } = made['grpo-step with a KL penalty']!
  const plain = made['grpo-step']!
  const refLogProbs = inputs.inputs.refLogProbs as { exp: number; values: number[] }

  /** The side file with other reference log-probs. */
  const withRefs = (values: number[]): InputsFile => ({
    ...inputs,
    inputs: { ...inputs.inputs, refLogProbs: { ...refLogProbs, values } },
  })

  it('carries klBeta, the reference log-probs and the mean KL; a step without one carries none', () => {
    expect(receipt.params).toEqual({ ...DEMO_GRPO_KL })
    expect(refLogProbs.exp).toBe(-24)
    expect(refLogProbs.values).toHaveLength(Number(inputs.inputs.batch) * Number(inputs.inputs.seqLen))
    const kl = inputs.outputs!.kl as { exp: number; value: number }
    expect(kl.value * 2 ** kl.exp).toBeGreaterThan(0)
    const ops = inputs.trace!.map((e) => e.op)
    expect(ops.slice(ops.indexOf('loss'), ops.indexOf('loss') + 2)).toEqual(['loss', 'kl'])

    expect(plain.receipt.params).not.toHaveProperty('klBeta')
    expect(plain.receipt.paramsHash).toBe(jsonHash({ ...DEMO_GRPO }))
    expect(plain.inputs.inputs).not.toHaveProperty('refLogProbs')
    expect(plain.inputs.outputs).not.toHaveProperty('kl')
    expect(plain.inputs.trace!.map((e) => e.op)).not.toContain('kl')
  })

  it('names inputHash when the reference log-probs in the side file change', async () => {
    const values = [...refLogProbs.values]
    values[values.length - 2] = values[values.length - 2]! - 1
    expect(failure(await check(receipt, withRefs(values)))).toMatch(
      /^inputHash: inputHash is not the hash of the inputs/,
    )
  })

  it('names the loss op when the prover re-signs other reference log-probs than the step used', async () => {
    const at = (inputs.inputs.mask as number[]).indexOf(1)
    const values = [...refLogProbs.values]
    values[at] = values[at]! - 2 ** 20
    const lied = withRefs(values)
    const lie = await reseal(receipt, { inputHash: jsonHash(lied.inputs) })
    const verdict = await check(lie, lied)
    expect(failure(verdict)).toMatch(/^traceRoot: first divergent op #\d+ loss: /)
  })

  it('refuses reference log-probs without klBeta, klBeta without them, and klBeta 0', async () => {
    const without = (json: JsonObject, key: string) =>
      Object.fromEntries(Object.entries(json).filter(([k]) => k !== key)) as JsonObject
    const noBeta = without(receipt.params, 'klBeta')
    const lieNoBeta = await reseal(receipt, { params: noBeta, paramsHash: jsonHash(noBeta) })
    expect(failure(await check(lieNoBeta, inputs))).toMatch(/^params: params\.klBeta is missing/)

    const noRefs = without(inputs.inputs, 'refLogProbs')
    const lieNoRefs = await reseal(receipt, { inputHash: jsonHash(noRefs) })
    expect(failure(await check(lieNoRefs, { ...inputs, inputs: noRefs }))).toMatch(
      /^inputs: inputs file: inputs\.refLogProbs is missing/,
    )

    const zero = { ...receipt.params, klBeta: 0 }
    const lieZero = await reseal(receipt, { params: zero, paramsHash: jsonHash(zero) })
    expect(failure(await check(lieZero, inputs))).toMatch(
      /^params: params\.klBeta must be a number in \(0, 1\]/,
    )
  })

  it('names the side file key when the reference log-probs are malformed', async () => {
    const cases: [Json, RegExp][] = [
      [{ exp: -20, values: refLogProbs.values }, /inputs\.refLogProbs must be \{exp: -24, values\}/],
      [{ exp: -24, values: [1] }, /inputs\.refLogProbs\.values has 1 entries, the batch needs 42/],
      [
        { exp: -24, values: refLogProbs.values.map(() => 2 ** 31) },
        /inputs\.refLogProbs\.values is not a list/,
      ],
    ]
    for (const [value, message] of cases) {
      const lied = { ...inputs, inputs: { ...inputs.inputs, refLogProbs: value } }
      const lie = await reseal(receipt, { inputHash: jsonHash(lied.inputs) })
      expect(failure(await check(lie, lied))).toMatch(message)
    }
  })
})
