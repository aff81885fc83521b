// Files in the origin private file system: one file per key in one directory per use, so the model
// cache and the trainer's state never collide. Keys are hex hashes or fixed names (cache-key.ts,
// trainer-session.ts), valid file names everywhere.
import type { BlobStore } from '../../../core/storage/blob-store.ts'

/** The OPFS directory that holds cached model files. */
export const MODEL_CACHE_DIRECTORY = 'tabswarm-model-cache'
/** The OPFS directory that holds the trainer's snapshot (weights, optimizer state, chain). */
export const TRAINER_DIRECTORY = 'tabswarm-trainer'

export class OpfsBlobStore implements BlobStore {
  private directory: Promise<FileSystemDirectoryHandle> | undefined

  private constructor(private readonly directoryName: string) {}

  /** The browser's store in `directoryName`, or undefined where OPFS is unavailable (nothing persists then). */
  static available(directoryName: string): OpfsBlobStore | undefined {
    return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function'
      ? new OpfsBlobStore(directoryName)
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
      .then((opfs) => opfs.getDirectoryHandle(this.directoryName, { create: true }))
    return this.directory
  }
}
