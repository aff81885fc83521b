import { generateKeyPair } from '@libp2p/crypto/keys'
import { describe, expect, it } from 'vitest'
import { qtensor } from '../kernels/ref/tensor.ts'
import { checkpointHash } from '../model/checkpoint.ts'
import type { Params } from '../model/params.ts'
import { fromBase64, toBase64 } from './base64.ts'
import { DEMO_MODEL, demoGeneration, demoTrainingStep } from './demo-receipts.ts'
import { HASH_HEX, jsonHash } from './digest.ts'
import { genesis } from './hash-chain.ts'
import type { InputsFile } from './inputs-file.ts'
import { kernelsHashFromDisk } from './kernels-hash-node.ts'
import { impliedChainTip, sealReceipt, validate } from './receipt.ts'
import { BODY_FIELDS, type Json, type Receipt, type ReceiptBody } from './receipt-schema.ts'
import type { MadeReceipt } from './receipt-builders.ts'
import { verify, type VerifyVerdict } from './verify.ts'

const key = await generateKeyPair('Ed25519')
const kernelsHash = kernelsHashFromDisk()
const made: Record<string, MadeReceipt> = {
  generation: await demoGeneration(key, kernelsHash),
  'training-step': await demoTrainingStep(key, kernelsHash),
}

/** A different value of the same type: the smallest lie about a field. */
function tampered(value: Json | undefined): Json {
  if (typeof value === 'string')
    return HASH_HEX.test(value) ? value.slice(0, -1) + (value.endsWith('0') ? '1' : '0') : value + 'x'
  if (typeof value === 'number') return value + 1
  if (value === null) return [0, 0]
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
  return sealReceipt({ ...body, chainTip }, key, receipt.info)
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
    const forged = await sealReceipt(receipt, other)
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
