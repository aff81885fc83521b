// GPT-2's byte ↔ unicode table: byte-level BPE works on strings in which every byte of the UTF-8 text
// is one printable character, so vocabularies and merges are plain JSON strings without control
// characters or spaces. Printable Latin-1 bytes stand for themselves; the other 68 bytes (controls,
// space, DEL, NBSP, soft hyphen) map in byte order to U+0100, U+0101, … (space → "Ġ", "\n" → "Ċ").

function isSelfMapped(byte: number): boolean {
  return (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff)
}

function buildByteToChar(): readonly string[] {
  const chars: string[] = []
  let next = 0x100
  for (let byte = 0; byte < 256; byte++) chars.push(String.fromCharCode(isSelfMapped(byte) ? byte : next++))
  return chars
}

/** BYTE_TO_CHAR[b] is the one-character string that stands for byte b. */
export const BYTE_TO_CHAR: readonly string[] = buildByteToChar()

const CHAR_TO_BYTE: ReadonlyMap<string, number> = new Map(BYTE_TO_CHAR.map((char, byte) => [char, byte]))

const utf8Encoder = new TextEncoder()
/** Not fatal: invalid sequences become U+FFFD, as the Rust library's from_utf8_lossy does; a leading BOM is text, kept. */
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true })

/** Text → its UTF-8 bytes written as byte-level characters. */
export function toByteLevel(text: string): string {
  let out = ''
  for (const byte of utf8Encoder.encode(text)) out += BYTE_TO_CHAR[byte]
  return out
}

/**
 * Appends the bytes a token stands for, like the Rust ByteLevel decoder: a token made only of byte-level
 * characters gives those bytes; any other token (an added token such as "<|im_start|>" with characters
 * outside the table) gives its own UTF-8 bytes.
 */
export function appendTokenBytes(token: string, out: number[]): void {
  const start = out.length
  for (const char of token) {
    const byte = CHAR_TO_BYTE.get(char)
    if (byte === undefined) {
      out.length = start
      for (const raw of utf8Encoder.encode(token)) out.push(raw)
      return
    }
    out.push(byte)
  }
}

export function decodeUtf8Lossy(bytes: readonly number[]): string {
  return utf8Decoder.decode(Uint8Array.from(bytes))
}
