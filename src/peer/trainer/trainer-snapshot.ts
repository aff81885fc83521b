// Everything a trainer needs to resume exactly where it stopped, as one file: written after every step
// in one put (OPFS commits a writable on close, so a reload finds the old snapshot or the new one,
// never half of each).
//
//   u32le headerLength · header (UTF-8 JSON) · checkpoint (tabswarm-q1) · optimizer (optimizer-state.ts)
//   · reference (tabswarm-q1, only while the trainer keeps it and it differs from the checkpoint)
//
// The header records every part's length and hash, so a truncated or damaged file is refused with
// what is wrong instead of resuming from different weights. Snapshots written before the reference
// existed have no reference fields and read as before.
import { checkpointHash, readCheckpoint } from '../../compute/model/checkpoint.ts'
import type { ModelConfig } from '../../compute/model/config.ts'
import type { TrainState } from '../../compute/model/train-step.ts'
import { HASH_HEX, sha256Hex } from '../../core/protocol/digest.ts'
import type { ChainPosition } from '../../core/protocol/hash-chain.ts'
import { optimizerBytes, readOptimizer } from '../../compute/proof/optimizer-state.ts'

export const SNAPSHOT_FORMAT = 'tabswarm-trainer-v1'

/** What a trainer is, apart from its weights and optimizer state. */
export interface TrainerIdentity {
  /** the receipts' modelId (src/compute/proof/models.ts) */
  readonly modelId: string
  /** pads rollout rows (the model's end-of-sequence token); never a loss target */
  readonly padId: number
}

export interface TrainerSnapshot extends TrainerIdentity {
  /** GRPO steps taken from the weights the trainer started with */
  readonly policyVersion: number
  /** the step-hash chain after the last step (src/core/protocol/hash-chain.ts) */
  readonly chain: ChainPosition
  readonly config: ModelConfig
  readonly state: TrainState
  /** the weights as a tabswarm-q1 checkpoint; its SHA-256 is the weights hash */
  readonly checkpoint: Uint8Array
  /**
   * The weights hash of the checkpoint the trainer was initialised from: the KL penalty's reference
   * policy. Absent in snapshots saved before the trainer recorded it.
   */
  readonly referenceHash?: string
  /** That checkpoint's bytes, while the trainer keeps them for KL steps (trainer-session.ts says when). */
  readonly reference?: Uint8Array
}

interface Header extends TrainerIdentity {
  readonly format: typeof SNAPSHOT_FORMAT
  readonly policyVersion: number
  readonly chain: ChainPosition
  readonly checkpointLength: number
  readonly weightsHash: string
  readonly optimizerLength: number
  readonly optimizerHash: string
  readonly referenceHash?: string
  /** bytes of the reference after the optimizer; 0 (or absent) when it is not stored */
  readonly referenceLength?: number
}

/** The reference bytes the file stores: none when there are none, or when they are the checkpoint itself. */
function storedReference(snapshot: TrainerSnapshot): Uint8Array {
  const { reference, referenceHash, checkpoint } = snapshot
  return reference && referenceHash !== checkpointHash(checkpoint) ? reference : new Uint8Array(0)
}

export function encodeSnapshot(snapshot: TrainerSnapshot): Uint8Array {
  const optimizer = optimizerBytes(snapshot.config, snapshot.state.optimizer)
  const reference = storedReference(snapshot)
  if (reference.length > 0 && checkpointHash(reference) !== snapshot.referenceHash)
    throw new RangeError('a trainer snapshot’s reference weights must match their hash')
  const header: Header = {
    format: SNAPSHOT_FORMAT,
    modelId: snapshot.modelId,
    padId: snapshot.padId,
    policyVersion: snapshot.policyVersion,
    chain: { tip: snapshot.chain.tip, length: snapshot.chain.length },
    checkpointLength: snapshot.checkpoint.length,
    weightsHash: checkpointHash(snapshot.checkpoint),
    optimizerLength: optimizer.length,
    optimizerHash: sha256Hex(optimizer),
    ...(snapshot.referenceHash === undefined
      ? {}
      : { referenceHash: snapshot.referenceHash, referenceLength: reference.length }),
  }
  const head = new TextEncoder().encode(JSON.stringify(header))
  const out = new Uint8Array(
    4 + head.length + snapshot.checkpoint.length + optimizer.length + reference.length,
  )
  new DataView(out.buffer).setUint32(0, head.length, true)
  out.set(head, 4)
  out.set(snapshot.checkpoint, 4 + head.length)
  out.set(optimizer, 4 + head.length + snapshot.checkpoint.length)
  out.set(reference, 4 + head.length + snapshot.checkpoint.length + optimizer.length)
  return out
}

const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0

function readHeader(bytes: Uint8Array): { header: Header; start: number } {
  const fail = (what: string): never => {
    throw new RangeError(`the stored trainer state is unreadable: ${what}`)
  }
  if (bytes.length < 4) fail('it is shorter than its header length')
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true)
  if (4 + length > bytes.length) fail('its header runs past the end of the file')
  let header: Partial<Header> = {}
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as Partial<Header>
  } catch {
    fail('its header is not JSON')
  }
  if (header.format !== SNAPSHOT_FORMAT)
    fail(`its format is ${String(header.format)}, not ${SNAPSHOT_FORMAT}`)
  const { chain } = header
  if (
    typeof header.modelId !== 'string' ||
    !isCount(header.padId) ||
    !isCount(header.policyVersion) ||
    !chain ||
    !HASH_HEX.test(String(chain.tip)) ||
    !isCount(chain.length) ||
    !isCount(header.checkpointLength) ||
    !isCount(header.optimizerLength) ||
    (header.referenceHash !== undefined && !HASH_HEX.test(String(header.referenceHash))) ||
    (header.referenceLength !== undefined && !isCount(header.referenceLength))
  )
    fail('its header lacks a field or has one out of range')
  const h = header as Header
  if (4 + length + h.checkpointLength + h.optimizerLength + (h.referenceLength ?? 0) !== bytes.length)
    fail('its length does not match the lengths in its header (a truncated write?)')
  return { header: h, start: 4 + length }
}

/** Reads a snapshot; throws a RangeError saying what is wrong with a damaged one. */
export function decodeSnapshot(bytes: Uint8Array): TrainerSnapshot {
  const { header, start } = readHeader(bytes)
  const checkpoint = bytes.slice(start, start + header.checkpointLength)
  const referenceStart = start + header.checkpointLength + header.optimizerLength
  const optimizer = bytes.subarray(start + header.checkpointLength, referenceStart)
  const stored = bytes.slice(referenceStart)
  if (checkpointHash(checkpoint) !== header.weightsHash)
    throw new RangeError('the stored trainer state is damaged: its weights do not match their hash')
  if (sha256Hex(optimizer) !== header.optimizerHash)
    throw new RangeError('the stored trainer state is damaged: its optimizer state does not match its hash')
  if (stored.length > 0 && checkpointHash(stored) !== header.referenceHash)
    throw new RangeError('the stored trainer state is damaged: its reference weights do not match their hash')
  const { referenceHash } = header
  // the reference is stored apart only when it is not the checkpoint (a trainer before its first step)
  const reference = stored.length > 0 ? stored : referenceHash === header.weightsHash ? checkpoint : undefined
  const { config, params } = readCheckpoint(checkpoint)
  return {
    modelId: header.modelId,
    padId: header.padId,
    policyVersion: header.policyVersion,
    chain: header.chain,
    config,
    state: { params, optimizer: readOptimizer(config, optimizer) },
    checkpoint,
    ...(referenceHash === undefined ? {} : { referenceHash }),
    ...(reference ? { reference } : {}),
  }
}
