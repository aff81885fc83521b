// Saves bytes or text as a file the way a browser download does (an object URL on a clicked link).

/** Long enough for the browser to start reading the blob; the URL is released afterwards. */
const REVOKE_AFTER_MS = 10_000

export function downloadFile(name: string, body: BlobPart, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([body], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS)
}
