// The held-out slice of every family's prompt space, reserved by prompt text rather than by seed: at
// difficulty 1 several families have only hundreds of distinct prompts, so a fresh seed repeats a
// training prompt. A prompt is reserved when the first byte of SHA-256(UTF-8 prompt) is below 32 (1/8 of
// the range). SFT data, the round draw and the curriculum never produce a reserved prompt; held-out
// evaluation uses only reserved ones. Synchronous (@noble/hashes), since the draw is synchronous.
import { sha256 } from '@noble/hashes/sha2.js'

/** First-byte bound of the reserved slice: 32 of 256 values, 1/8 of the prompt space. */
export const RESERVED_FIRST_BYTE_BELOW = 32

const encoder = new TextEncoder()

/** Whether `prompt` (the task's full prompt text) lies in the held-out slice. */
export const isReservedPrompt = (prompt: string): boolean =>
  sha256(encoder.encode(prompt))[0]! < RESERVED_FIRST_BYTE_BELOW
