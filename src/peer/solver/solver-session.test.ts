// The page's client and the worker's session together, in process: the "worker" hands each request to
// a SolverSession running a real onnxruntime-web session (Node build) on an in-memory model folder.
import * as ort from 'onnxruntime-web'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { writeCheckpoint } from '../../compute/model/checkpoint.ts'
import { initParams } from '../../compute/model/params.ts'
import { asPickedFiles, testModelFolder } from '../../compute/model/load/test-folder.ts'
import { loadModelFolder } from '../../compute/model/load/load-model-folder.ts'
import { memoryFolder } from '../../compute/model/load/memory-folder.ts'
import { sourceReader } from './source-reader.ts'
import { TINY_CONFIG } from '../../compute/model/test-model.ts'
import { createSolverClient, type SolverClient } from './solver-client.ts'
import type { SolverMethods } from './solver-protocol.ts'
import { serveRpc } from '../rpc/worker-rpc.ts'
import { inProcessWorker } from '../../../test-support/rpc/in-process-worker.ts'
import { SolverSession, solverHandlers } from './solver-session.ts'

const folder = testModelFolder()
const otherWeights = testModelFolder({ seed: [7, 8] })
const greedy = { temperature: 0, topK: 0, topP: 1, seed: 0, maxNewTokens: 12 }

function inProcessClient(): SolverClient {
  const session = new SolverSession({
    importOrt: () => Promise.resolve(ort),
    hasRealGpu: () => Promise.resolve(false),
    readerFor: (source) => sourceReader(source),
    now: () => performance.now(),
  })
  // Node's structuredClone drops a File's webkitRelativePath, so calls go by reference; answers are cloned
  return createSolverClient(() =>
    inProcessWorker<SolverMethods>((scope) => serveRpc(scope, solverHandlers(session)), false),
  )
}

const picked = (files: Map<string, Uint8Array>) => ({
  kind: 'files' as const,
  files: asPickedFiles(files, 'tiny'),
})

async function loadedClient(files = folder.files): Promise<SolverClient> {
  const client = inProcessClient()
  await client.load(picked(files))
  return client
}

const tokens = async (client: SolverClient, prompt = 'add 12 and 30') =>
  (await client.generate(prompt, 2, greedy)).completions.map((c) => c.tokenIds)

describe('solver client and worker session', () => {
  it('loads a picked folder with progress and describes it on the card', async () => {
    const client = inProcessClient()
    const files: string[] = []
    const card = await client.load(picked(folder.files), (p) => files.push(p.file))
    expect(card).toMatchObject({
      name: 'tabswarm-test',
      backend: 'wasm',
      trainable: true,
      source: 'tiny',
      weightsHash: bytesToHex(sha256(folder.checkpoint)),
      vocabSize: folder.config.vocabSize,
      maxContext: 64,
    })
    expect(card.parameters).toBe(
      folder.config.vocabSize * 32 + 2 * (4 * 32 * 32 - 2 * 32 * 16 + 3 * 32 * 48 + 64) + 32,
    )
    expect(client.card).toEqual(card)
    expect(new Set(files)).toEqual(
      new Set(['tabswarm.json', 'config.json', 'tokenizer.json', 'onnx/model.onnx']),
    )
  })

  it('loads a folder the tab has already read, from its bytes, and names its URL on the card', async () => {
    const client = inProcessClient()
    const files = Object.fromEntries([...folder.files].filter(([path]) => path !== 'model.safetensors'))
    const card = await client.load({ kind: 'read', url: 'https://example.test/models/tiny/', files })
    expect(card).toMatchObject({
      name: 'tabswarm-test',
      trainable: true,
      source: 'https://example.test/models/tiny/',
      weightsHash: bytesToHex(sha256(folder.checkpoint)),
    })
    expect(await tokens(client)).toEqual(await tokens(await loadedClient()))
    // a file the tab did not read is missing, said so, and nothing else is fetched for it
    const withoutOnnx = Object.fromEntries(
      Object.entries(files).filter(([path]) => path !== 'onnx/model.onnx'),
    )
    await expect(
      inProcessClient().load({ kind: 'read', url: 'https://example.test/models/tiny/', files: withoutOnnx }),
    ).rejects.toThrow('onnx/model.onnx')
  })

  it('samples from token ids as it does from the prompt text they frame, and refuses ids outside the vocabulary', async () => {
    const client = await loadedClient()
    const prompt = 'add 12 and 30'
    const text = (await client.generate(prompt, 2, greedy)).completions
    const { tokenizer } = await loadModelFolder(memoryFolder('tiny', Object.fromEntries(folder.files)))
    const ids = tokenizer.encode(`${prompt}\n`)
    expect((await client.generate({ ids }, 2, greedy)).completions).toEqual(text)
    await expect(client.generate({ ids: [...ids, folder.config.vocabSize] }, 1, greedy)).rejects.toThrow(
      `token id ${folder.config.vocabSize} is outside the model's vocabulary`,
    )
    await expect(client.generate({ ids: [] }, 1, greedy)).rejects.toThrow('no tokens')
  })

  it('streams deltas that add up to each completion, and reports speed', async () => {
    const client = await loadedClient()
    const streamed = ['', '', '']
    const result = await client.generate(
      'the answer is',
      3,
      { ...greedy, temperature: 1, seed: 3 },
      (s, d) => {
        streamed[s] += d
      },
    )
    expect(result.completions).toHaveLength(3)
    expect(streamed).toEqual(result.completions.map((c) => c.text))
    expect(result.completions.every((c) => c.tokenIds.length > 0)).toBe(true)
    expect(result.tokensPerSecond).toBeGreaterThan(0)
    expect(result.firstTokenMs).toBeGreaterThan(0)
  })

  it('cancels a request by id and resolves with what it had', async () => {
    const client = await loadedClient()
    let deltas = 0
    const call = client.generate('add', 2, { ...greedy, maxNewTokens: 40 }, () => {
      if (++deltas === 2) client.cancel(call.requestId)
    })
    const { completions } = await call
    expect(completions.every((c) => c.stop === 'cancelled' || c.stop === 'eos')).toBe(true)
    expect(completions.some((c) => c.stop === 'cancelled')).toBe(true)
    expect(completions[0]!.tokenIds.length).toBeLessThan(40)
  })

  it('swaps weights between requests: before the swap old weights, after it the new ones', async () => {
    const client = await loadedClient()
    const reference = await loadedClient(otherWeights.files)
    const [before, expectedAfter] = [await tokens(client), await tokens(reference)]
    expect(expectedAfter).not.toEqual(before)
    // sent back to back: the first generate runs whole on the old weights, the second on the new
    const first = tokens(client)
    const swapped = client.swapWeights(otherWeights.checkpoint)
    const second = tokens(client)
    expect(await first).toEqual(before)
    expect(await swapped).toBe(bytesToHex(sha256(otherWeights.checkpoint)))
    expect(await second).toEqual(expectedAfter)
    expect(client.card?.weightsHash).toBe(bytesToHex(sha256(otherWeights.checkpoint)))
  })

  it('refuses a checkpoint for another config and keeps serving the old weights', async () => {
    const client = await loadedClient()
    const before = await tokens(client)
    const wrong = writeCheckpoint(TINY_CONFIG, initParams(TINY_CONFIG, [1, 1]))
    await expect(client.swapWeights(wrong)).rejects.toMatchObject({
      kind: 'swap-failed',
      message: expect.stringMatching(/another model config \(vocabSize 24 ≠ \d+, maxSeqLen 16 ≠ 64\)/),
    })
    await expect(client.swapWeights(new Uint8Array(5))).rejects.toThrow(/not a tabswarm-q1 checkpoint/)
    expect(await tokens(client)).toEqual(before)
  })

  it('refuses to swap the weights of a model without a manifest', async () => {
    const files = new Map(folder.files)
    files.delete('tabswarm.json')
    const client = await loadedClient(files)
    expect(client.card?.trainable).toBe(false)
    await expect(client.swapWeights(folder.checkpoint)).rejects.toThrow(/tiny is not trainable/)
  })

  it('gives typed errors for a generate without a model, a failed load, and an over-long prompt', async () => {
    const client = inProcessClient()
    await expect(client.generate('x', 1, greedy)).rejects.toMatchObject({
      kind: 'generate-failed',
      message: expect.stringMatching(/no model is loaded/),
    })
    await client.load(picked(folder.files))
    const broken = new Map(folder.files)
    broken.delete('config.json')
    await expect(client.load(picked(broken))).rejects.toMatchObject({
      kind: 'load-failed',
      message: expect.stringMatching(/required file config\.json is missing/),
    })
    // the old model still serves
    expect((await client.generate('add', 1, greedy)).completions).toHaveLength(1)
    // more new tokens than the context holds: the samples stop where it ends
    const long = await client.generate('add 12 and 30', 1, { ...greedy, maxNewTokens: 200 })
    expect(long.completions[0]!.stop).toMatch(/^(eos|max-tokens)$/)
    expect(long.completions[0]!.tokenIds.length).toBeLessThanOrEqual(64 - 4)
    await expect(client.generate('add '.repeat(40), 1, greedy)).rejects.toThrow(
      /leaves no room in the model's context of 64 tokens/,
    )
  })

  it('rejects pending calls when terminated', async () => {
    const client = await loadedClient()
    const call = client.generate('add', 1, greedy)
    client.terminate()
    await expect(call).rejects.toMatchObject({ kind: 'terminated' })
    expect(client.card).toBeUndefined()
  })
})
