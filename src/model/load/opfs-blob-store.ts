// The model cache in the origin private file system: one file per key in one directory. Keys are hex
// hashes (cache-key.ts), which are valid file names everywhere.
import type { BlobStore } from './blob-store.ts'

/** The OPFS directory that holds cached model files. */
const CACHE_DIRECTORY = 'tabswarm-model-cache'

export class OpfsBlobStore implements BlobStore {
  private directory: Promise<FileSystemDirectoryHandle> | undefined

  /** The browser's store, or undefined where OPFS is unavailable (no cache then). */
  static available(): OpfsBlobStore | undefined {
    return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function'
      ? new OpfsBlobStore()
      : undefined
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const file = await (await (await this.root()).getFileHandle(key)).getFile()
      return new Uint8Array(await file.arrayBuffer())
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotFoundError') return undefined
      throw error
    }
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const handle = await (await this.root()).getFileHandle(key, { create: true })
    const writable = await handle.createWritable()
    await writable.write(bytes as Uint8Array<ArrayBuffer>)
    await writable.close()
  }

  private root(): Promise<FileSystemDirectoryHandle> {
    this.directory ??= navigator.storage
      .getDirectory()
      .then((opfs) => opfs.getDirectoryHandle(CACHE_DIRECTORY, { create: true }))
    return this.directory
  }
}
