import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { canonicalJson } from '../../core/protocol/canonical-json.ts'
import { qtensor } from '../kernels/ref/tensor.ts'
import { validateConfig, type ModelConfig } from './config.ts'
import { parameterLayout } from './layout.ts'
import type { Params } from './params.ts'

/**
 * Checkpoints are safetensors files: an 8-byte little-endian header length, a JSON header, then the
 * raw little-endian i32 tensors in layout order. The header is RFC 8785 canonical JSON padded with
 * spaces to a multiple of 8, so equal weights give equal bytes and the SHA-256 of the file is the
 * weights hash. tabswarm's extras live in __metadata__ (string values only, as safetensors requires):
 * the format tag, the model config, and each tensor's power-of-two exponent (value = int·2^exp).
 */
export const CHECKPOINT_FORMAT = 'tabswarm-q1'

interface TensorEntry {
  dtype: string
  shape: number[]
  data_offsets: [number, number]
}

export function writeCheckpoint(config: ModelConfig, params: Params): Uint8Array {
  const specs = parameterLayout(validateConfig(config))
  const header: Record<string, unknown> = {}
  const exps: Record<string, number> = {}
  let offset = 0
  for (const { name, shape } of specs) {
    const t = params.get(name)
    if (!t || t.data.length !== shape.reduce((a, b) => a * b, 1))
      throw new RangeError(`checkpoint: parameter ${name} missing or misshapen`)
    header[name] = { dtype: 'I32', shape: [...shape], data_offsets: [offset, offset + t.data.byteLength] }
    exps[name] = t.exp
    offset += t.data.byteLength
  }
  header.__metadata__ = {
    format: CHECKPOINT_FORMAT,
    config: canonicalJson(config),
    exponents: canonicalJson(exps),
  }
  let json = canonicalJson(header)
  json += ' '.repeat((8 - (new TextEncoder().encode(json).length % 8)) % 8)
  const head = new TextEncoder().encode(json)
  const out = new Uint8Array(8 + head.length + offset)
  const view = new DataView(out.buffer)
  view.setBigUint64(0, BigInt(head.length), true)
  out.set(head, 8)
  let at = 8 + head.length
  for (const { name } of specs) {
    for (const v of params.get(name)!.data) {
      view.setInt32(at, v, true)
      at += 4
    }
  }
  return out
}

export interface Checkpoint {
  readonly config: ModelConfig
  readonly params: Params
}

function fail(what: string): never {
  throw new RangeError(`not a ${CHECKPOINT_FORMAT} checkpoint: ${what}`)
}

/** Parses and checks a checkpoint against the layout its own config implies. */
export function readCheckpoint(bytes: Uint8Array): Checkpoint {
  if (bytes.length < 8) fail('shorter than its 8-byte header length')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const headLength = Number(view.getBigUint64(0, true))
  if (8 + headLength > bytes.length) fail('header length runs past the end of the file')
  let header: Record<string, unknown>
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headLength))) as Record<
      string,
      unknown
    >
  } catch {
    fail('header is not JSON')
  }
  const meta = header.__metadata__ as Record<string, string> | undefined
  if (meta?.format !== CHECKPOINT_FORMAT) fail(`format tag is ${String(meta?.format)}`)
  const config = validateConfig(JSON.parse(meta.config!) as ModelConfig)
  const exps = JSON.parse(meta.exponents!) as Record<string, number>
  const dataStart = 8 + headLength
  const layout = parameterLayout(config)
  const total = layout.reduce((n, { shape }) => n + 4 * shape.reduce((a, b) => a * b, 1), 0)
  if (dataStart + total !== bytes.length) fail('file length does not match its tensors')
  const params: Params = new Map()
  let expected = 0
  for (const { name, shape } of layout) {
    const entry = header[name] as TensorEntry | undefined
    if (!entry) fail(`tensor ${name} is missing`)
    const size = shape.reduce((a, b) => a * b, 1) * 4
    if (entry.dtype !== 'I32' || entry.shape.join() !== shape.join())
      fail(`tensor ${name} is not I32 [${shape.join(', ')}]`)
    if (entry.data_offsets[0] !== expected || entry.data_offsets[1] !== expected + size)
      fail(`tensor ${name} has unexpected offsets`)
    if (!Number.isInteger(exps[name])) fail(`tensor ${name} has no exponent`)
    const t = qtensor(shape, exps[name]!)
    for (let i = 0; i < t.data.length; i++) t.data[i] = view.getInt32(dataStart + expected + 4 * i, true)
    params.set(name, t)
    expected += size
  }
  return { config, params }
}

/** SHA-256 (hex) of checkpoint bytes: the receipts' weightsHash. */
export function checkpointHash(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes))
}

export function weightsHash(config: ModelConfig, params: Params): string {
  return checkpointHash(writeCheckpoint(config, params))
}
