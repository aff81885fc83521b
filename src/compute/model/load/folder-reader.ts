// A model folder seen as files by relative path, whatever holds them: a web server, files the user
// picked, or a directory handle. Readers only fetch bytes and report progress; hashing, integrity and
// parsing live in load-model-folder.ts, so every source is checked the same way.

export interface FileProgress {
  readonly loadedBytes: number
  /** undefined while the size is unknown */
  readonly totalBytes: number | undefined
  readonly fromCache: boolean
}

export type FileRead =
  /** sha256: the bytes' SHA-256 when the reader already computed it (the loader hashes the rest) */
  | { readonly found: true; readonly bytes: Uint8Array; readonly sha256?: string }
  /** why the file is not there, naming the place looked at (the URL and HTTP status, the folder path) */
  | { readonly found: false; readonly reason: string }

export interface FolderReader {
  /** what the model card shows as its source: a URL or the folder's name */
  readonly label: string
  /**
   * Reads one file by its path in the folder ('onnx/model.onnx'); `pinnedSha256` is the manifest's hash
   * when there is one, so a caching reader can serve a verified copy. Throws for failures other than
   * absence (a server error, a lost connection), with the place and the cause.
   */
  read(
    path: string,
    pinnedSha256: string | undefined,
    onProgress: (progress: FileProgress) => void,
  ): Promise<FileRead>
}

/** Bytes between two progress reports of one file: often enough for a smooth bar, few enough messages. */
export const PROGRESS_STEP_BYTES = 1 << 20

/** Reads a byte stream to the end, reporting progress at the start, every PROGRESS_STEP_BYTES, and at the end. */
export async function readWithProgress(
  stream: ReadableStream<Uint8Array>,
  totalBytes: number | undefined,
  onProgress: (progress: FileProgress) => void,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let loaded = 0
  let reported = 0
  onProgress({ loadedBytes: 0, totalBytes, fromCache: false })
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    loaded += value.length
    if (loaded - reported >= PROGRESS_STEP_BYTES) {
      onProgress({ loadedBytes: loaded, totalBytes, fromCache: false })
      reported = loaded
    }
  }
  const bytes = new Uint8Array(loaded)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.length
  }
  onProgress({ loadedBytes: loaded, totalBytes: totalBytes ?? loaded, fromCache: false })
  return bytes
}
