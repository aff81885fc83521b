// The model a learning swarm trains, as the peer worker needs it: the folder's tokenizer and prompt
// framing (the same the solver uses, so prompt ids match what it samples from) and the pinned checkpoint
// the trainer starts from. Only tabswarm models are trainable: a manifest with `trainable: true`. The
// folder is read here once per tab: the solvers load the bytes kept in `files`.
import { loadModelFolder, type ModelFolder } from '../../compute/model/load/load-model-folder.ts'
import type { FolderReader } from '../../compute/model/load/folder-reader.ts'
import { recordingFolder } from '../../compute/model/load/memory-folder.ts'
import { sha256Hex } from '../../compute/model/load/sha256-hex.ts'
import { promptTemplate } from '../solver/prompt-frame.ts'

export interface LearningModel {
  folder: ModelFolder
  /** the folder's files as read (path → bytes, the checkpoint aside): the solvers load these, not the URL */
  files: Record<string, Uint8Array>
  /** the manifest's name: the receipts' modelId */
  modelId: string
  /** model.safetensors (tabswarm-q1), checked against the manifest's weightsHash */
  checkpoint: Uint8Array
  /** its SHA-256: what a trainer of this model starts from */
  weightsHash: string
  promptTemplate: string
  /** pads rollout rows in the trainer: the model's end-of-sequence token */
  eosId: number
}

const CHECKPOINT_PATH = 'model.safetensors'

/** Loads and checks the swarm's model folder; throws an Error whose message says what to fix. */
export async function loadLearningModel(reader: FolderReader): Promise<LearningModel> {
  const files: Record<string, Uint8Array> = {}
  const folder = await loadModelFolder(recordingFolder(reader, files))
  const { manifest } = folder
  if (!manifest?.trainable)
    throw new Error(
      `the swarm's model ${reader.label} is not a trainable tabswarm model (its tabswarm.json must say trainable: true)`,
    )
  const read = await reader.read(CHECKPOINT_PATH, manifest.weightsHash, () => {})
  if (!read.found)
    throw new Error(`the swarm's model ${reader.label} has no ${CHECKPOINT_PATH} (${read.reason})`)
  const hash = read.sha256 ?? (await sha256Hex(read.bytes))
  if (hash !== manifest.weightsHash)
    throw new Error(
      `the swarm's model ${reader.label}: ${CHECKPOINT_PATH} does not match tabswarm.json's weightsHash; the folder was refused`,
    )
  const eosId = folder.eosIds[0]
  if (eosId === undefined) throw new Error(`the swarm's model ${reader.label} names no end-of-sequence token`)
  return {
    folder,
    files,
    modelId: manifest.name,
    checkpoint: read.bytes,
    weightsHash: hash,
    promptTemplate: promptTemplate(manifest, folder.tokenizer),
    eosId,
  }
}

/**
 * The names the Train view shows: the folder's (/models/tabswarm-next/ → tabswarm-next), the model a
 * person chose, and the manifest's — what receipts carry — only where it differs (two folders may share
 * it: tabswarm-next's receipts name the architecture it shares with tabswarm-tiny).
 */
export function shownNames(folderUrl: string, modelId: string): { name: string; modelId?: string } {
  const folder = new URL(folderUrl).pathname.split('/').findLast((part) => part !== '')
  const name = folder === undefined ? modelId : decodeURIComponent(folder)
  return name === modelId ? { name } : { name, modelId }
}
