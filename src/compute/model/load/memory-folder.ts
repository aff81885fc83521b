// A model folder whose files a tab has already read (the peer worker reads the swarm's folder once and
// hands its bytes to the solvers), so a second load parses and checks the same bytes without fetching
// them again. The loader still checks them against the manifest, as it does for every source.
import type { FileRead, FolderReader } from './folder-reader.ts'

export function memoryFolder(label: string, files: Readonly<Record<string, Uint8Array>>): FolderReader {
  return {
    label,
    read(path, _pinned, onProgress): Promise<FileRead> {
      if (!Object.hasOwn(files, path))
        return Promise.resolve({ found: false, reason: `${path} is not among the files read from ${label}` })
      const bytes = files[path]!
      onProgress({ loadedBytes: bytes.length, totalBytes: bytes.length, fromCache: true })
      return Promise.resolve({ found: true, bytes })
    },
  }
}

/** `reader`, keeping the bytes of every file it finds in `into` (path → bytes). */
export function recordingFolder(reader: FolderReader, into: Record<string, Uint8Array>): FolderReader {
  return {
    label: reader.label,
    async read(path, pinned, onProgress) {
      const read = await reader.read(path, pinned, onProgress)
      if (read.found) into[path] = read.bytes
      return read
    },
  }
}
