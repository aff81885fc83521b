import { describe, expect, it } from 'vitest'
import type { FolderReader } from '../../compute/model/load/folder-reader.ts'
import { testModelFolder } from '../../compute/model/load/test-folder.ts'
import { loadLearningModel, shownNames } from './learning-model.ts'

function reader(files: ReadonlyMap<string, Uint8Array>): FolderReader {
  return {
    label: 'test-folder',
    read: async (path) =>
      files.has(path) ? { found: true, bytes: files.get(path)! } : { found: false, reason: `${path}: 404` },
  }
}

describe('the learning model', () => {
  it('gives the tokenizer, framing, EOS and the pinned checkpoint of a trainable folder', async () => {
    const test = testModelFolder()
    const model = await loadLearningModel(reader(test.files))
    expect(model).toMatchObject({ modelId: 'tabswarm-test', promptTemplate: '{prompt}\n', eosId: test.eosId })
    expect(model.checkpoint).toEqual(test.checkpoint)
    expect(model.folder.tokenizer.decode(model.folder.tokenizer.encode('add 12'))).toBe('add 12')
  })

  it('keeps the files the folder was read from, so the solvers load it without reading it again', async () => {
    const test = testModelFolder()
    const reads: string[] = []
    const counting = reader(test.files)
    const model = await loadLearningModel({
      ...counting,
      read: (path, pinned, onProgress) => (reads.push(path), counting.read(path, pinned, onProgress)),
    })
    expect(Object.keys(model.files).sort()).toEqual([
      'config.json',
      'onnx/model.onnx',
      'tabswarm.json',
      'tokenizer.json',
    ])
    for (const [path, bytes] of Object.entries(model.files)) expect(bytes).toEqual(test.files.get(path))
    // every file once: the folder's four and the checkpoint
    expect(reads.sort()).toEqual([...Object.keys(model.files), 'model.safetensors'].sort())
  })

  it('refuses a folder that is not trainable or whose checkpoint is missing', async () => {
    const test = testModelFolder()
    const manifest = JSON.parse(new TextDecoder().decode(test.files.get('tabswarm.json')))
    const untrainable = new Map(test.files)
    untrainable.set(
      'tabswarm.json',
      new TextEncoder().encode(JSON.stringify({ ...manifest, trainable: false })),
    )
    await expect(loadLearningModel(reader(untrainable))).rejects.toThrow('is not a trainable tabswarm model')
    const noCheckpoint = new Map(test.files)
    noCheckpoint.delete('model.safetensors')
    await expect(loadLearningModel(reader(noCheckpoint))).rejects.toThrow('has no model.safetensors')
  })
})

describe("the learning model's shown name", () => {
  it("is the folder's, with the receipts' name beside it only where they differ", () => {
    expect(shownNames('http://127.0.0.1:5173/models/tabswarm-next/', 'tabswarm-tiny')).toEqual({
      name: 'tabswarm-next',
      modelId: 'tabswarm-tiny',
    })
    expect(shownNames('http://127.0.0.1:5173/models/tabswarm-micro/', 'tabswarm-micro')).toEqual({
      name: 'tabswarm-micro',
    })
    expect(shownNames('https://example.org/', 'tabswarm-tiny')).toEqual({ name: 'tabswarm-tiny' })
  })
})
