import { describe, expect, it } from 'vitest'
import { folderOfFiles } from './folder-source.ts'

const picked = (path: string) => {
  const file = new File(['x'], path.split('/').pop()!)
  Object.defineProperty(file, 'webkitRelativePath', { value: path })
  return file
}

describe('folderOfFiles', () => {
  it('names the folder by the picked files’ top folder and passes the files on', () => {
    const files = [picked('qwen-tiny/config.json'), picked('qwen-tiny/onnx/model.onnx')]
    expect(folderOfFiles(files)).toEqual({ name: 'qwen-tiny', source: { kind: 'files', files } })
  })

  it('refuses an empty folder with a sentence', () => {
    expect(() => folderOfFiles([])).toThrow('the chosen folder is empty')
  })
})
