// Where downloaded model files are kept between page loads. The browser uses OPFS (opfs-blob-store.ts);
// Node tests use the in-memory store. A store is a cache: a failed write only costs a later download.

export interface BlobStore {
  get(key: string): Promise<Uint8Array | undefined>
  put(key: string, bytes: Uint8Array): Promise<void>
}

/** Whether a store's error is the browser's quota (a full disk or a full origin), by its DOMException name. */
export const isStorageFull = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'name' in error && error.name === 'QuotaExceededError'

export class MemoryBlobStore implements BlobStore {
  readonly entries = new Map<string, Uint8Array>()

  get(key: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.entries.get(key))
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    this.entries.set(key, bytes.slice())
    return Promise.resolve()
  }
}
