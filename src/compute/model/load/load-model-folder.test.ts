import { createServer, type Server } from 'node:http'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MemoryBlobStore } from '../../../core/storage/blob-store.ts'
import type { FolderProgress } from './load-model-folder.ts'
import { loadModelFolder } from './load-model-folder.ts'
import { pickedFilesFolder } from './picked-files-folder.ts'
import { asPickedFiles, testModelFolder } from './test-folder.ts'
import { urlFolder } from './url-folder.ts'

const PORT = 19695
const BASE = `http://127.0.0.1:${PORT}/models/test/`
const folder = testModelFolder()
/** what the server serves now (path in the folder → bytes), and which paths were requested */
let served = new Map<string, Uint8Array>()
let requested: string[] = []
let failWith: number | undefined
let server: Server

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, BASE).pathname.replace('/models/test/', ''))
    requested.push(path)
    const bytes = served.get(path)
    if (failWith) res.writeHead(failWith).end()
    else if (!bytes) res.writeHead(404).end()
    else res.writeHead(200, { 'content-length': bytes.length }).end(bytes)
  })
  await new Promise<void>((resolve) => server.listen(PORT, '127.0.0.1', resolve))
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  served = new Map(folder.files)
  requested = []
  failWith = undefined
})

function collect(): { events: FolderProgress[]; onProgress: (p: FolderProgress) => void } {
  const events: FolderProgress[] = []
  return { events, onProgress: (p) => events.push(p) }
}

describe('loading a model folder from a URL', () => {
  it('reads config, tokenizer and decoder, hashes every file, and reports progress per file', async () => {
    const { events, onProgress } = collect()
    const model = await loadModelFolder(urlFolder(BASE), onProgress)
    expect(model.config).toEqual(folder.config)
    expect(model.eosIds).toEqual([folder.eosId])
    expect(model.tokenizer.decode(model.tokenizer.encode('the answer is 42'))).toBe('the answer is 42')
    expect(model.onnx).toEqual(folder.files.get('onnx/model.onnx'))
    expect(model.trainable).toBe(true)
    expect(model.name).toBe('tabswarm-test')
    expect(model.weightsHash).toBe(bytesToHex(sha256(folder.checkpoint)))
    expect(model.hashes['tokenizer.json']).toBe(bytesToHex(sha256(folder.files.get('tokenizer.json')!)))
    // the checkpoint is the trainer's business: the solver does not download it
    expect(requested).toEqual(['tabswarm.json', 'config.json', 'tokenizer.json', 'onnx/model.onnx'])
    const onnxSize = folder.files.get('onnx/model.onnx')!.length
    const last = events.filter((e) => e.file === 'onnx/model.onnx').pop()
    expect(last).toEqual({
      file: 'onnx/model.onnx',
      loadedBytes: onnxSize,
      totalBytes: onnxSize,
      fromCache: false,
    })
    expect(events[0]).toEqual({
      file: 'tabswarm.json',
      loadedBytes: 0,
      totalBytes: expect.any(Number),
      fromCache: false,
    })
  })

  it('serves pinned files from the cache on the next load', async () => {
    const cache = new MemoryBlobStore()
    await loadModelFolder(urlFolder(BASE, { cache }))
    expect(cache.entries.size).toBe(3)
    requested = []
    const { events, onProgress } = collect()
    const again = await loadModelFolder(urlFolder(BASE, { cache }), onProgress)
    expect(again.onnx).toEqual(folder.files.get('onnx/model.onnx'))
    expect(requested).toEqual(['tabswarm.json'])
    expect(events.filter((e) => e.fromCache).map((e) => e.file)).toEqual([
      'config.json',
      'tokenizer.json',
      'onnx/model.onnx',
    ])
  })

  it('refetches a corrupted cache entry', async () => {
    const cache = new MemoryBlobStore()
    await loadModelFolder(urlFolder(BASE, { cache }))
    for (const bytes of cache.entries.values()) bytes[0] = bytes[0]! ^ 1
    requested = []
    const model = await loadModelFolder(urlFolder(BASE, { cache }))
    expect(model.onnx).toEqual(folder.files.get('onnx/model.onnx'))
    expect(requested).toEqual(['tabswarm.json', 'config.json', 'tokenizer.json', 'onnx/model.onnx'])
  })

  it('refuses a folder whose file differs from its pin, naming the file, and caches nothing of it', async () => {
    const changed = folder.files.get('tokenizer.json')!.slice()
    changed[changed.length - 2] = 0x20
    served.set('tokenizer.json', changed)
    const cache = new MemoryBlobStore()
    await expect(loadModelFolder(urlFolder(BASE, { cache }))).rejects.toThrow(
      /tokenizer\.json does not match tabswarm\.json .*refused/,
    )
    expect(cache.entries.size).toBe(1) // config.json only
  })

  it('names the URL and the status of a missing required file', async () => {
    served.delete('config.json')
    await expect(loadModelFolder(urlFolder(BASE))).rejects.toThrow(
      `the required file config.json is missing (HTTP 404 at ${BASE}config.json)`,
    )
  })

  it('names the URL and status of a server error', async () => {
    failWith = 503
    await expect(loadModelFolder(urlFolder(BASE))).rejects.toThrow(`${BASE}tabswarm.json: HTTP 503`)
  })

  it('loads a folder without a manifest and with the decoder at the root as not trainable', async () => {
    const plain = testModelFolder({ onnxAtRoot: true }).files
    plain.delete('tabswarm.json')
    served = plain
    const model = await loadModelFolder(urlFolder(BASE.slice(0, -1)))
    expect(model.trainable).toBe(false)
    expect(model.manifest).toBeUndefined()
    expect(model.name).toBe('test')
    expect(model.weightsHash).toBe(bytesToHex(sha256(plain.get('model.onnx')!)))
    expect(requested).toContain('onnx/model.onnx')
  })

  it('names both decoder places when neither has it', async () => {
    served.delete('tabswarm.json')
    served.delete('onnx/model.onnx')
    await expect(loadModelFolder(urlFolder(BASE))).rejects.toThrow(
      /onnx\/model\.onnx \(or model\.onnx\) is missing \(onnx\/model\.onnx: HTTP 404 .*; model\.onnx: HTTP 404/,
    )
  })

  it('refuses a manifest that leaves a file unpinned', async () => {
    const manifest = JSON.parse(new TextDecoder().decode(folder.files.get('tabswarm.json')))
    delete manifest.files['config.json']
    served.set('tabswarm.json', new TextEncoder().encode(JSON.stringify(manifest)))
    await expect(loadModelFolder(urlFolder(BASE))).rejects.toThrow(/tabswarm\.json does not pin config\.json/)
  })
})

describe('loading a picked folder', () => {
  it('reads File objects under their webkitRelativePath, labelled with the folder name', async () => {
    const { events, onProgress } = collect()
    const model = await loadModelFolder(
      pickedFilesFolder(asPickedFiles(folder.files, 'my-model')),
      onProgress,
    )
    expect(model.source).toBe('my-model')
    expect(model.onnx).toEqual(folder.files.get('onnx/model.onnx'))
    expect(new Set(events.map((e) => e.file))).toEqual(
      new Set(['tabswarm.json', 'config.json', 'tokenizer.json', 'onnx/model.onnx']),
    )
  })

  it('finds the root below a picked parent folder, and names a missing file', async () => {
    const nested = asPickedFiles(folder.files, 'models/tiny')
    expect((await loadModelFolder(pickedFilesFolder(nested))).source).toBe('tiny')
    const withoutTokenizer = nested.filter((f) => !f.webkitRelativePath.endsWith('tokenizer.json'))
    await expect(loadModelFolder(pickedFilesFolder(withoutTokenizer))).rejects.toThrow(
      'model folder tiny: the required file tokenizer.json is missing (not among the picked files of tiny)',
    )
  })
})
