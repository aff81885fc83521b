// Signed GRPO-step receipts of one peer's training chain for the tests: hashes are stand-ins, but the
// chain links, paramsHash, receiptHash and signature are real, so `validate` accepts them.
import type { PrivateKey } from '@libp2p/interface'
import { jsonHash } from '../../src/core/protocol/digest.ts'
import { extend, genesis, stepDigest } from '../../src/core/protocol/hash-chain.ts'
import { signReceipt } from '../../src/core/protocol/receipt.ts'
import type { Receipt } from '../../src/core/protocol/receipt-schema.ts'

const hex = (n: number) => n.toString(16).padStart(64, '0')

/** The weights step `i` of a chain starting at `start` reads (step i + 1 reads what step i wrote). */
export const weightsAt = (i: number, start = 0x1000) => hex(start + i)

/** `steps` consecutive steps from fresh weights `weightsAt(0, start)`, oldest first. */
export async function chainedReceipts(key: PrivateKey, steps: number, start = 0x1000): Promise<Receipt[]> {
  let chain = genesis(weightsAt(0, start))
  const receipts: Receipt[] = []
  for (let i = 0; i < steps; i++) {
    const params = { lr: 0.01 }
    const work = {
      version: 1 as const,
      kind: 'grpo-step' as const,
      modelId: 'test-model',
      configHash: hex(1),
      weightsHash: weightsAt(i, start),
      kernelsHash: hex(2),
      opSet: 'reproducible' as const,
      inputHash: hex(0x100 + i),
      params,
      paramsHash: jsonHash(params),
      seed: null,
      outputHash: hex(0x200 + i),
      traceRoot: hex(0x300 + i),
    }
    chain = extend(chain, stepDigest(work))
    receipts.push(await signReceipt({ ...work, chainTip: chain.tip, chainLength: chain.length }, key))
  }
  return receipts
}
