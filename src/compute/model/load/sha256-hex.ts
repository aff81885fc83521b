// SHA-256 of a model file, as lowercase hex (the form tabswarm.json pins). WebCrypto where the page is a
// secure context (native, fast on hundreds of megabytes); @noble/hashes elsewhere: `crypto.subtle` is
// undefined on plain-http origins other than localhost, and a model served from one must still load.
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle
  if (!subtle) return bytesToHex(sha256(bytes))
  return bytesToHex(new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)))
}
