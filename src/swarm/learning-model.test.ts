import { describe, expect, it } from 'vitest'
import type { FolderReader } from '../model/load/folder-reader.ts'
import { testModelFolder } from '../model/load/test-folder.ts'
import { loadLearningModel } from './learning-model.ts'

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
