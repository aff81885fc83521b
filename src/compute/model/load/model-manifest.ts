// tabswarm.json, the manifest of tabswarm's own model folders (docs/model-folder.md): it pins every
// file's SHA-256 and says whether the tab can train the weights.

export const MANIFEST_FORMAT = 'tabswarm-model-v1'

export interface ModelManifest {
  readonly format: typeof MANIFEST_FORMAT
  readonly name: string
  /** frames a task prompt; `{prompt}` is replaced */
  readonly promptTemplate: string
  /** folder path → hex SHA-256 */
  readonly files: Readonly<Record<string, string>>
  /** hex SHA-256 of model.safetensors */
  readonly weightsHash: string
  readonly trainable: boolean
}

const HEX_SHA256 = /^[0-9a-f]{64}$/

function fail(what: string): never {
  throw new RangeError(`tabswarm.json: ${what}`)
}

export function parseManifest(bytes: Uint8Array): ModelManifest {
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder().decode(bytes))
  } catch (error) {
    fail(`not JSON (${(error as Error).message})`)
  }
  if (typeof json !== 'object' || json === null) fail('must hold a JSON object')
  const m = json as Record<string, unknown>
  if (m.format !== MANIFEST_FORMAT)
    fail(`format must be "${MANIFEST_FORMAT}" (got ${JSON.stringify(m.format)})`)
  if (typeof m.name !== 'string' || !m.name) fail('name must be a non-empty string')
  if (typeof m.promptTemplate !== 'string' || !m.promptTemplate.includes('{prompt}'))
    fail('promptTemplate must be a string containing {prompt}')
  if (typeof m.files !== 'object' || m.files === null) fail('files must map file paths to SHA-256 hashes')
  for (const [path, hash] of Object.entries(m.files))
    if (typeof hash !== 'string' || !HEX_SHA256.test(hash)) fail(`files["${path}"] is not a hex SHA-256`)
  if (typeof m.weightsHash !== 'string' || !HEX_SHA256.test(m.weightsHash))
    fail('weightsHash is not a hex SHA-256')
  if (typeof m.trainable !== 'boolean') fail('trainable must be true or false')
  return m as unknown as ModelManifest
}
