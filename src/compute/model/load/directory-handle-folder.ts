// A model folder opened with showDirectoryPicker() (a FileSystemDirectoryHandle, which can be sent to
// the worker and kept in IndexedDB to reopen the folder later).
import { readWithProgress, type FileRead, type FolderReader } from './folder-reader.ts'

function isNotFound(error: unknown): boolean {
  return (
    error instanceof DOMException && (error.name === 'NotFoundError' || error.name === 'TypeMismatchError')
  )
}

export function directoryHandleFolder(handle: FileSystemDirectoryHandle): FolderReader {
  return {
    label: handle.name,
    async read(path, _pinned, onProgress): Promise<FileRead> {
      const parts = path.split('/')
      let file: File
      try {
        let directory = handle
        for (const part of parts.slice(0, -1)) directory = await directory.getDirectoryHandle(part)
        file = await (await directory.getFileHandle(parts[parts.length - 1]!)).getFile()
      } catch (error) {
        if (isNotFound(error)) return { found: false, reason: `not in the folder ${handle.name}` }
        throw error
      }
      return { found: true, bytes: await readWithProgress(file.stream(), file.size, onProgress) }
    },
  }
}
