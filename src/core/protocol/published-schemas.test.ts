import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { publishedSchemaFiles } from './published-schemas.ts'

const committed = (file: string) =>
  readFileSync(fileURLToPath(new URL(`../../../docs/schema/${file}`, import.meta.url)), 'utf8')

describe('docs/schema', () => {
  it.each(Object.entries(publishedSchemaFiles()))(
    '%s is what npm run schema:docs generates from the runtime schemas',
    (file, generated) => {
      expect(committed(file)).toBe(generated)
    },
  )
})
