// Command-line options with environment-variable equivalents, for the Node commands. A flag wins over
// its variable; a bad value is a UsageError that names the flag and says what it expects.
import { parseArgs } from 'node:util'

export type OptionKind = 'string' | 'port' | 'count' | 'list' | 'flag'

export interface OptionSpec {
  kind: OptionKind
  /** the environment variable read when the flag is absent */
  env?: string
  help: string
}

type ValueOf<K extends OptionKind> = K extends 'string'
  ? string
  : K extends 'port' | 'count'
    ? number
    : K extends 'list'
      ? string[]
      : boolean

export type Options<S extends Record<string, OptionSpec>> = { [K in keyof S]?: ValueOf<S[K]['kind']> }

export class UsageError extends Error {
  override name = 'UsageError'
}

/** `maxReservations` → `max-reservations` */
const flagOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

function convert(kind: OptionKind, raw: string | string[] | boolean, source: string): unknown {
  if (kind === 'flag') return raw === true || (typeof raw === 'string' && /^(1|true|yes)$/i.test(raw))
  const values = (Array.isArray(raw) ? raw : [String(raw)]).flatMap((v) => v.split(',')).map((v) => v.trim())
  if (kind === 'list') return values.filter((v) => v !== '')
  const value = values.at(-1) ?? ''
  if (kind === 'string') return value
  const n = Number(value)
  if (kind === 'port' && !(Number.isInteger(n) && n >= 0 && n <= 65535 && value !== '')) {
    throw new UsageError(`${source} must be a port number from 0 to 65535, not "${value}"`)
  }
  if (kind === 'count' && !(Number.isInteger(n) && n >= 1)) {
    throw new UsageError(`${source} must be a whole number of at least 1, not "${value}"`)
  }
  return n
}

/**
 * Reads `specs` from `argv` (without the node and script paths) and `env`. `help` is true when -h or
 * --help was given.
 */
export function readOptions<S extends Record<string, OptionSpec>>(
  specs: S,
  argv: readonly string[],
  env: Record<string, string | undefined>,
): { options: Options<S>; help: boolean } {
  const parseOptions: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  }
  for (const [key, spec] of Object.entries(specs)) {
    parseOptions[flagOf(key)] = {
      type: spec.kind === 'flag' ? 'boolean' : 'string',
      multiple: spec.kind === 'list',
    }
  }
  let values: Record<string, string | string[] | boolean | (string | boolean)[] | undefined>
  try {
    values = parseArgs({
      args: [...argv],
      options: parseOptions,
      strict: true,
      allowPositionals: false,
    }).values
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
  const options: Record<string, unknown> = {}
  for (const [key, spec] of Object.entries(specs)) {
    const flag = values[flagOf(key)] as string | string[] | boolean | undefined
    const fromEnv = spec.env === undefined ? undefined : env[spec.env]
    if (flag !== undefined) options[key] = convert(spec.kind, flag, `--${flagOf(key)}`)
    else if (spec.env !== undefined && fromEnv !== undefined && fromEnv !== '') {
      options[key] = convert(spec.kind, fromEnv, spec.env)
    }
  }
  return { options: options as Options<S>, help: values.help === true }
}

/** The help text: one line per option with its flag, variable and description. */
export function usageText(command: string, summary: string, specs: Record<string, OptionSpec>): string {
  const rows = Object.entries(specs).map(([key, spec]): [string, string] => {
    const value = { string: ' <value>', port: ' <port>', count: ' <n>', list: ' <value>', flag: '' }[
      spec.kind
    ]
    return [`--${flagOf(key)}${value}`, spec.help + (spec.env ? ` (env ${spec.env})` : '')]
  })
  const width = Math.max(...rows.map(([flag]) => flag.length))
  return [
    `usage: ${command} [options]`,
    '',
    summary,
    '',
    ...rows.map(([f, h]) => `  ${f.padEnd(width)}  ${h}`),
    `  ${'-h, --help'.padEnd(width)}  show this help`,
  ].join('\n')
}
