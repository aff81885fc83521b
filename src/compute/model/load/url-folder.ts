// A model folder on a web server (the shipped model under /models/, a Hugging Face `resolve/main/` URL).
// Each file is fetched with streamed progress. Files the manifest pins are cached in a BlobStore keyed
// by URL and hash, so a reload reads them locally and a changed file (new hash) is fetched anew; files
// without a pin are never cached, since nothing would tell a stale copy from the current one.
import type { BlobStore } from '../../../core/storage/blob-store.ts'
import { readWithProgress, type FileRead, type FolderReader } from './folder-reader.ts'
import { sha256Hex } from './sha256-hex.ts'

export interface UrlFolderOptions {
  readonly fetch?: typeof fetch
  readonly cache?: BlobStore
}

/** The folder URL with a trailing slash, resolved against the page (or worker) location when relative. */
export function folderBaseUrl(url: string): URL {
  const base = typeof location === 'undefined' ? undefined : location.href
  let resolved: URL
  try {
    resolved = new URL(url, base)
  } catch {
    throw new RangeError(`model folder: "${url}" is not a valid URL`)
  }
  if (!resolved.pathname.endsWith('/')) resolved.pathname += '/'
  return resolved
}

/** The size a response will have, when the server says so; a compressed body's length is not its size. */
function declaredSize(response: Response): number | undefined {
  const length = response.headers.get('content-length')
  if (length === null || response.headers.get('content-encoding')) return undefined
  const n = Number(length)
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

export function urlFolder(url: string, options: UrlFolderOptions = {}): FolderReader {
  const base = folderBaseUrl(url)
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init))
  const cache = options.cache
  const cacheKey = (fileUrl: string, sha256: string) =>
    sha256Hex(new TextEncoder().encode(`${fileUrl}\n${sha256}`))

  return {
    label: base.href,
    async read(path, pinnedSha256, onProgress): Promise<FileRead> {
      const fileUrl = new URL(path, base).href
      const key = cache && pinnedSha256 ? await cacheKey(fileUrl, pinnedSha256) : undefined
      if (cache && key) {
        const cached = await cache.get(key).catch(() => undefined)
        // a torn or corrupted entry fails the hash and is fetched again
        if (cached && (await sha256Hex(cached)) === pinnedSha256) {
          onProgress({ loadedBytes: cached.length, totalBytes: cached.length, fromCache: true })
          return { found: true, bytes: cached, sha256: pinnedSha256 }
        }
      }
      let response: Response
      try {
        response = await doFetch(fileUrl)
      } catch (error) {
        throw new Error(
          `could not fetch ${fileUrl}: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
      if (response.status === 404 || response.status === 410)
        return { found: false, reason: `HTTP ${response.status} at ${fileUrl}` }
      if (!response.ok)
        throw new Error(`could not fetch ${fileUrl}: HTTP ${response.status} ${response.statusText}`)
      const bytes = await readWithProgress(
        response.body ?? new Blob().stream(),
        declaredSize(response),
        onProgress,
      )
      const sha256 = await sha256Hex(bytes)
      // only verified bytes go into the cache; a failed write just means a download next time
      if (cache && key && sha256 === pinnedSha256) await cache.put(key, bytes).catch(() => undefined)
      return { found: true, bytes, sha256 }
    },
  }
}
