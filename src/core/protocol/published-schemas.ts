// The JSON Schemas published in docs/schema/, each generated from the schema the runtime checks with
// (`npm run schema:docs` writes them; published-schemas.test.ts fails when a committed file is stale).
import { SWARM_CONFIG_SCHEMA } from '../config/swarm-config.ts'
import { ENVELOPE_SCHEMA } from './envelope.ts'
import { PRESENCE_BODY_SCHEMA } from './presence.ts'
import { RECEIPTS_BODY_SCHEMA } from './receipts-message.ts'
import { ROLLOUTS_BODY_SCHEMA } from './rollouts.ts'
import { INPUTS_FILE_SCHEMA } from './inputs-file.ts'
import { RECEIPT_SCHEMA } from './receipt-schema.ts'
import { publishedJsonSchema, type JsonSchema } from './schema.ts'

const BASE = 'https://tabswarm.dev/schema/'

/** File name in docs/schema/ → its schema and title. */
const PUBLISHED = {
  'swarm-config.json': [SWARM_CONFIG_SCHEMA, 'swarm.json: a swarm config (its hash is the swarm id)'],
  'envelope.json': [ENVELOPE_SCHEMA, 'The envelope every gossip message travels in'],
  'presence-body.json': [PRESENCE_BODY_SCHEMA, 'The presence message body'],
  'rollouts-body.json': [ROLLOUTS_BODY_SCHEMA, 'The rollouts message body'],
  'receipts-body.json': [RECEIPTS_BODY_SCHEMA, 'The receipts message body'],
  'receipt.json': [RECEIPT_SCHEMA, 'A receipt (name.receipt.json)'],
  'receipt-inputs.json': [INPUTS_FILE_SCHEMA, "A receipt's side file (name.inputs.json)"],
} as const

export type PublishedFile = keyof typeof PUBLISHED

/** Every published schema by file name, as the file's text (2-space JSON and a final newline). */
export function publishedSchemaFiles(): Record<PublishedFile, string> {
  const files = {} as Record<PublishedFile, string>
  for (const [file, [schema, title]] of Object.entries(PUBLISHED) as [
    PublishedFile,
    (typeof PUBLISHED)[PublishedFile],
  ][])
    files[file] = `${JSON.stringify(publishedJsonSchema(schema, { id: BASE + file, title }), null, 2)}\n`
  return files
}

/** One published schema, parsed (what the corpus test hands ajv). */
export const publishedSchema = (file: PublishedFile): JsonSchema =>
  JSON.parse(publishedSchemaFiles()[file]) as JsonSchema
