// The step-hash chain of a training run: h0 commits to everything that decides the run (config,
// hyperparameters, tokenizer, init seed); each step chains the previous hash, the step number, the
// exact loss and the hash of all weights after the step. Replaying a prefix of the run must give the
// same hashes, so anyone can check that shipped weights came from the recipe.
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js'
import { canonicalJson } from '../../../core/protocol/canonical-json.ts'

export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes))
}

/** h0 = SHA-256 of the RFC 8785 canonical JSON of the run's commitments. */
export function genesisHash(commitments: unknown): string {
  return sha256Hex(new TextEncoder().encode(canonicalJson(commitments)))
}

/** SHA-256 of the float64 values, little-endian, in order. */
export function float64Hash(values: Float64Array): string {
  const bytes = new Uint8Array(values.length * 8)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < values.length; i++) view.setFloat64(i * 8, values[i]!, true)
  return sha256Hex(bytes)
}

/** h_i = SHA-256(h_{i−1} (32 bytes) ‖ step (u32 LE) ‖ loss (f64 LE) ‖ SHA-256 of the weights (32 bytes)). */
export function stepHash(previous: string, step: number, loss: number, weightsHash: string): string {
  const fields = new Uint8Array(12)
  const view = new DataView(fields.buffer)
  view.setUint32(0, step, true)
  view.setFloat64(4, loss, true)
  return sha256Hex(concatBytes(hexToBytes(previous), fields, hexToBytes(weightsHash)))
}
