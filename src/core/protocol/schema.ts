// Shape checks at trust boundaries are zod schemas. One definition gives both the runtime check, whose
// first issue is the sentence a user or a log sees, and the JSON Schema published in docs/schema/
// (scripts/schema-docs.ts). Classic zod, not zod/mini: its objects compile to a JIT parser, which keeps
// gossip validation within 20 % of the hand-written checks (mini made a presence 24 % slower to
// validate); it costs ~28 kB more gzipped in the tab bundle than mini (~37 kB in all).
import * as z from 'zod'

export type JsonSchema = Record<string, unknown>

/**
 * The issue to tell: an unknown field first (what a hand-written check looks at before the fields, and
 * usually the one thing wrong with a message from a newer peer), else the first in field order.
 */
export const firstIssue = (error: z.core.$ZodError): z.core.$ZodIssue =>
  error.issues.find((issue) => issue.code === 'unrecognized_keys') ?? error.issues[0]!

/** The value, typed, or the sentence of the first thing wrong with it (each schema names its field). */
export function checked<T>(schema: z.ZodType<T>, value: unknown): T | string {
  const result = schema.safeParse(value)
  return result.success ? result.data : firstIssue(result.error).message
}

/**
 * A string of `min`–`max` characters; whatever is wrong, the sentence is `error`. (A check costs
 * ~100 ns a value: bounds a type already implies are left out, as gossip is a hot path.)
 */
export const stringOf = (min: number, max: number, error: string) =>
  min === 0
    ? z.string({ error }).check(z.maxLength(max, { error }))
    : z.string({ error }).check(z.minLength(min, { error }), z.maxLength(max, { error }))

/** A safe integer in `min`–`max` (z.int() is already at most MAX_SAFE_INTEGER); whatever is wrong, the sentence is `error`. */
export const intIn = (min: number, max: number, error: string) =>
  max === Number.MAX_SAFE_INTEGER
    ? z.int({ error }).check(z.gte(min, { error }))
    : z.int({ error }).check(z.gte(min, { error }), z.lte(max, { error }))

/** JSON Schema that zod cannot derive, merged into a node's: a predicate's whole schema, or a rule. */
const jsonSchemaExtras = new WeakMap<z.core.$ZodType, JsonSchema>()

/** Publishes `extra` (e.g. an if/then rule that a refinement checks) in the schema's JSON Schema. */
export function withJsonSchema<S extends z.ZodType>(schema: S, extra: JsonSchema): S {
  jsonSchemaExtras.set(schema, extra)
  return schema
}

/**
 * A check written as a predicate, for hot arrays where a per-element schema costs ~100 ns an item
 * (token ids: tens of thousands per message), with the JSON Schema it publishes. The corpus test
 * (src/core/protocol/schema-corpus.test.ts) shows the two accept and refuse the same values.
 */
export function predicate<T>(test: (v: unknown) => v is T, error: string, jsonSchema: JsonSchema) {
  return withJsonSchema(z.custom<T>(test, { error }), jsonSchema)
}

/**
 * A dense array of at most `max` items that pass `item` (every index is read, so a hole is an
 * undefined item: JSON has no holes, and `every` would skip one).
 */
export function denseArrayOf<T>(
  item: (v: unknown) => v is T,
  sizes: { min?: number; max: number },
): (v: unknown) => v is T[] {
  const { min = 0, max } = sizes
  return (v: unknown): v is T[] => {
    if (!Array.isArray(v) || v.length < min || v.length > max) return false
    for (let i = 0; i < v.length; i++) if (!item(v[i])) return false
    return true
  }
}

/** Draft-07 JSON Schema of what a boundary accepts (its input), with a title and an $id. */
export function publishedJsonSchema(schema: z.ZodType, meta: { id: string; title: string }): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
    override(ctx) {
      const extra = jsonSchemaExtras.get(ctx.zodSchema)
      if (extra === undefined && ctx.zodSchema._zod.def.type === 'custom')
        throw new Error('a custom check without its JSON Schema: use predicate()')
      Object.assign(ctx.jsonSchema, extra)
    },
  })
  return { $schema: json.$schema, $id: meta.id, title: meta.title, ...json }
}
