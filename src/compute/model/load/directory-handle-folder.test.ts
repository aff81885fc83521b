import { describe, expect, it } from 'vitest'
import { directoryHandleFolder } from './directory-handle-folder.ts'
import { loadModelFolder } from './load-model-folder.ts'
import { testModelFolder } from './test-folder.ts'

/** A FileSystemDirectoryHandle over in-memory files, with the browser's NotFoundError for absent entries. */
function fakeHandle(
  name: string,
  files: ReadonlyMap<string, Uint8Array>,
  prefix = '',
): FileSystemDirectoryHandle {
  const notFound = () => Promise.reject(new DOMException(`${name}: not found`, 'NotFoundError'))
  return {
    name,
    getDirectoryHandle: (child: string) =>
      [...files.keys()].some((path) => path.startsWith(`${prefix}${child}/`))
        ? Promise.resolve(fakeHandle(child, files, `${prefix}${child}/`))
        : notFound(),
    getFileHandle: (child: string) => {
      const bytes = files.get(prefix + child)
      return bytes
        ? Promise.resolve({
            getFile: () => Promise.resolve(new File([bytes as Uint8Array<ArrayBuffer>], child)),
          })
        : notFound()
    },
  } as unknown as FileSystemDirectoryHandle
}

describe('loading a folder from a directory handle', () => {
  const folder = testModelFolder()

  it('walks subfolders to the decoder and labels the model with the folder name', async () => {
    const model = await loadModelFolder(directoryHandleFolder(fakeHandle('tabswarm-tiny', folder.files)))
    expect(model.source).toBe('tabswarm-tiny')
    expect(model.onnx).toEqual(folder.files.get('onnx/model.onnx'))
  })

  it('names a missing file and the folder', async () => {
    const files = new Map(folder.files)
    files.delete('onnx/model.onnx')
    await expect(loadModelFolder(directoryHandleFolder(fakeHandle('tiny', files)))).rejects.toThrow(
      /tiny: the required file onnx\/model\.onnx \(or model\.onnx\) is missing/,
    )
  })
})
