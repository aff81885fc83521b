import { jsonHash, sha256Hex } from '../../core/protocol/digest.ts'

/**
 * Version of the TS twin's integer semantics (src/compute/kernels/ref, docs/number-format.md). Bump it with
 * any change that can move an output bit of the twin: the WGSL sources are hashed from the files, the
 * twin is not (its TS source also changes for reasons that move no bit), and the WGSL == twin tests
 * are what keep the two in step. 2: sampling divides the logits by T before a plain softmax (1 folded
 * 1/T into the softmax's log2 e; draws at T ≠ 1 may differ, T = 1 draws do not).
 */
export const TWIN_VERSION = 2

/**
 * kernelsHash = SHA-256 of the RFC 8785 JSON {"shaders": {"<file>.wgsl": sha256(utf-8 bytes)},
 * "twin": TWIN_VERSION}, over every shaders/*.wgsl file: it changes whenever any shader changes.
 * The sources come from the files at build time (kernels-hash-bundled.ts, Vite) or at run time
 * (kernels-hash-node.ts, Node), so a page and a Node verifier compute the same value from the same
 * checkout.
 */
export function kernelsHashOf(shaders: Readonly<Record<string, string>>, twin = TWIN_VERSION): string {
  const hashes = Object.fromEntries(
    Object.entries(shaders).map(([file, source]) => [file, sha256Hex(new TextEncoder().encode(source))]),
  )
  return jsonHash({ shaders: hashes, twin })
}
