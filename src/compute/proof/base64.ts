/** Standard base64 (RFC 4648) with btoa/atob, which pages, workers and Node 20 all have. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  // chunks keep String.fromCharCode's argument count far below engine limits
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
}
