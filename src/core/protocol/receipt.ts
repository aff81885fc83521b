import type { PrivateKey } from '@libp2p/interface'
import { peerIdFromPrivateKey, peerIdFromString } from '@libp2p/peer-id'
import { domainSigner, verifyInDomain, type DomainSigner } from '../identity/signing-domains.ts'
import { bytesToHex, hexToBytes, jsonHash } from './digest.ts'
import { extend, genesis, stepDigest } from './hash-chain.ts'
import {
  BODY_FIELDS,
  extendsChain,
  schemaFailure,
  type Failure,
  type JsonObject,
  type Receipt,
  type ReceiptBody,
} from './receipt-schema.ts'

export type Verdict = { readonly ok: true } | ({ readonly ok: false } & Failure)

export const OK: Verdict = { ok: true }

export function fail(field: string, message: string): Verdict {
  return { ok: false, field, message }
}

/** The hashed part of a receipt, exactly the body fields (absent optional ones stay absent). */
export function receiptBody(receipt: ReceiptBody): ReceiptBody {
  const body: Record<string, unknown> = {}
  for (const field of BODY_FIELDS) if (receipt[field] !== undefined) body[field] = receipt[field]
  return body as unknown as ReceiptBody
}

export function receiptHash(body: ReceiptBody): string {
  return jsonHash(receiptBody(body))
}

/** Completes a body with the signer's peer id, the receipt hash and the signature. */
export function signReceipt(
  body: Omit<ReceiptBody, 'peerId'>,
  key: PrivateKey,
  info?: JsonObject,
): Promise<Receipt> {
  return sealReceipt({ ...body, peerId: peerIdFromPrivateKey(key).toString() }, domainSigner(key), info)
}

/**
 * Hashes and signs a body as it is, peerId included (signReceipt derives peerId from the key). The
 * signature is in the receipt signing domain, over the 32 bytes of receiptHash; a worker signs through
 * the bridge, which is a DomainSigner too.
 */
export async function sealReceipt(
  body: ReceiptBody,
  signer: DomainSigner,
  info?: JsonObject,
): Promise<Receipt> {
  const hash = receiptHash(body)
  const signature = bytesToHex(await signer.signIn('receipt', hexToBytes(hash)))
  return { ...receiptBody(body), receiptHash: hash, signature, ...(info ? { info } : {}) }
}

/**
 * Checks a receipt from the file alone: its shape, paramsHash, receiptHash, the signature by the key
 * that peerId embeds (Ed25519 and secp256k1 peer ids embed their key; RSA ones do not and are
 * refused), and the chain tip where the file fixes it (at genesis, or a first training step).
 * Names the first failing field.
 */
export async function validate(value: unknown): Promise<Verdict> {
  const schema = schemaFailure(value)
  if (schema) return { ok: false, ...schema }
  const receipt = value as Receipt
  if (jsonHash(receipt.params) !== receipt.paramsHash)
    return fail('paramsHash', 'paramsHash is not the hash of params')
  if (receiptHash(receipt) !== receipt.receiptHash)
    return fail(
      'receiptHash',
      'receiptHash is not the hash of the receipt fields (a hashed field was changed)',
    )
  let publicKey
  try {
    publicKey = peerIdFromString(receipt.peerId).publicKey
  } catch {
    return fail('peerId', `peerId ${receipt.peerId} is not a libp2p peer id`)
  }
  if (!publicKey) return fail('peerId', `peerId ${receipt.peerId} does not embed its public key`)
  if (
    !(await verifyInDomain(
      publicKey,
      'receipt',
      hexToBytes(receipt.receiptHash),
      hexToBytes(receipt.signature),
    ))
  )
    return fail('signature', `signature is not peerId ${receipt.peerId}'s signature of receiptHash`)
  // after the signature: a field changed after signing is reported as such, not as a chain mismatch
  return chainFailure(receipt) ?? OK
}

/** The chain tip the receipt itself fixes: at genesis, and after a first training (or GRPO) step. */
export function impliedChainTip(body: ReceiptBody): string | undefined {
  const start = genesis(body.weightsHash)
  if (body.chainLength === 0) return start.tip
  if (extendsChain(body.kind) && body.chainLength === 1) return extend(start, stepDigest(body)).tip
  return undefined
}

function chainFailure(receipt: Receipt): Verdict | undefined {
  const implied = impliedChainTip(receipt)
  if (implied === undefined || implied === receipt.chainTip) return undefined
  return fail(
    'chainTip',
    receipt.chainLength === 0
      ? 'chainTip at chainLength 0 must be the genesis of weightsHash'
      : 'chainTip is not the first link from the genesis of weightsHash over this step',
  )
}
