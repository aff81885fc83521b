// Writes docs/schema/*.json, the JSON Schemas of the swarm config, the envelope, every message body and
// the receipt, from the schemas the runtime checks with (src/core/protocol/published-schemas.ts).
//   npm run schema:docs
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { publishedSchemaFiles } from '../src/core/protocol/published-schemas.ts'

const dir = fileURLToPath(new URL('../docs/schema/', import.meta.url))
await mkdir(dir, { recursive: true })
for (const [file, text] of Object.entries(publishedSchemaFiles())) {
  await writeFile(dir + file, text)
  console.log(`wrote docs/schema/${file}`)
}
