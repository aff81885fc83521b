// Loads a model folder (docs/model-folder.md) from any FolderReader: the manifest first (its hashes pin
// the other files and key the cache), then config.json, tokenizer.json and the ONNX decoder. Every file
// read is hashed; with a manifest, a file whose bytes differ from its pin refuses the whole folder.
import type { ModelConfig } from '../config.ts'
import { parseTokenizerJson } from '../tokenizer/bpe-tokenizer.ts'
import type { Tokenizer } from '../tokenizer/tokenizer.ts'
import type { FileProgress, FolderReader } from './folder-reader.ts'
import { parseHfConfig } from './hf-config.ts'
import { parseManifest, type ModelManifest } from './model-manifest.ts'
import { sha256Hex } from './sha256-hex.ts'

export interface FolderProgress extends FileProgress {
  /** the file's path in the folder */
  readonly file: string
}

export interface ModelFolder {
  /** a URL or the folder's name */
  readonly source: string
  readonly name: string
  readonly config: ModelConfig
  readonly eosIds: readonly number[]
  readonly tokenizer: Tokenizer
  readonly onnx: Uint8Array
  readonly manifest: ModelManifest | undefined
  /** path → hex SHA-256 of every file read */
  readonly hashes: Readonly<Record<string, string>>
  /** bytes of the files read */
  readonly sizeBytes: number
  /** tabswarm models: the checkpoint's hash from the manifest; others: the .onnx file's hash */
  readonly weightsHash: string
  readonly trainable: boolean
}

export const MANIFEST_PATH = 'tabswarm.json'
/** Where the decoder may sit, in the order they are tried. */
export const ONNX_PATHS = ['onnx/model.onnx', 'model.onnx'] as const
const CHECKPOINT_PATH = 'model.safetensors'

export class ModelFolderError extends Error {
  override readonly name = 'ModelFolderError'
}

export async function loadModelFolder(
  reader: FolderReader,
  onProgress: (progress: FolderProgress) => void = () => {},
): Promise<ModelFolder> {
  const where = `model folder ${reader.label}`
  const hashes: Record<string, string> = {}
  let sizeBytes = 0
  let manifest: ModelManifest | undefined

  /** Reads, hashes and checks one file; undefined when it is absent (with the reason). */
  const read = async (path: string): Promise<{ bytes: Uint8Array } | { missing: string }> => {
    const pinned = manifest?.files[path]
    if (manifest && !pinned)
      throw new ModelFolderError(`${where}: tabswarm.json does not pin ${path}; the folder was refused`)
    const result = await reader.read(path, pinned, (progress) => onProgress({ file: path, ...progress }))
    if (!result.found) return { missing: result.reason }
    const sha256 = result.sha256 ?? (await sha256Hex(result.bytes))
    if (pinned && sha256 !== pinned)
      throw new ModelFolderError(
        `${where}: ${path} does not match tabswarm.json (SHA-256 ${sha256}, pinned ${pinned}); the folder was refused`,
      )
    hashes[path] = sha256
    sizeBytes += result.bytes.length
    return { bytes: result.bytes }
  }
  const required = async (path: string): Promise<Uint8Array> => {
    const result = await read(path)
    if ('missing' in result)
      throw new ModelFolderError(`${where}: the required file ${path} is missing (${result.missing})`)
    return result.bytes
  }
  /** Parse errors name their file already (config.json: …, tabswarm.json: …); this adds the folder. */
  const parsed = <T>(parse: () => T): T => {
    try {
      return parse()
    } catch (error) {
      throw new ModelFolderError(`${where}: ${(error as Error).message}`)
    }
  }

  const manifestFile = await read(MANIFEST_PATH)
  if ('bytes' in manifestFile) {
    manifest = parsed(() => parseManifest(manifestFile.bytes))
    const checkpointPin = manifest.files[CHECKPOINT_PATH]
    if (checkpointPin !== undefined && checkpointPin !== manifest.weightsHash)
      throw new ModelFolderError(
        `${where}: tabswarm.json's weightsHash differs from its pin of ${CHECKPOINT_PATH}`,
      )
  }
  const configBytes = await required('config.json')
  const { config, eosIds } = parsed(() => parseHfConfig(configBytes))
  const tokenizerBytes = await required('tokenizer.json')
  const tokenizer = parsed(() => {
    try {
      return parseTokenizerJson(JSON.parse(new TextDecoder().decode(tokenizerBytes)))
    } catch (error) {
      throw new Error(`tokenizer.json: ${(error as Error).message}`)
    }
  })
  if (tokenizer.vocabSize > config.vocabSize)
    throw new ModelFolderError(
      `${where}: tokenizer.json has ${tokenizer.vocabSize} tokens but config.json's vocab_size is ${config.vocabSize}`,
    )
  const onnx = await readOnnx()
  const onnxPath = Object.keys(hashes).find((path) => (ONNX_PATHS as readonly string[]).includes(path))!
  return {
    source: reader.label,
    name: manifest?.name ?? folderName(reader.label),
    config,
    eosIds,
    tokenizer,
    onnx,
    manifest,
    hashes,
    sizeBytes,
    weightsHash: manifest?.weightsHash ?? hashes[onnxPath]!,
    trainable: manifest?.trainable ?? false,
  }

  async function readOnnx(): Promise<Uint8Array> {
    const reasons: string[] = []
    for (const path of ONNX_PATHS) {
      // with a manifest, the decoder is where it pins it
      if (manifest && !manifest.files[path]) continue
      const result = await read(path)
      if ('bytes' in result) return result.bytes
      reasons.push(`${path}: ${result.missing}`)
    }
    throw new ModelFolderError(
      `${where}: the required file ${ONNX_PATHS.join(' (or ')}) is missing${reasons.length ? ` (${reasons.join('; ')})` : ''}`,
    )
  }
}

/** The last segment of a URL path or folder label, for models without a manifest name. */
function folderName(label: string): string {
  return label.split('/').filter(Boolean).pop() ?? label
}
