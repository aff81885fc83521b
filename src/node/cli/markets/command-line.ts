// The market commands' command line: `<command> <positionals…> [--flag value]…`. Every flag takes a
// value; which flags and how many positionals a command accepts is its own spec. A negative number
// reads like a flag to a parser, so it is caught first and named for what it is.
import { parseArgs } from 'node:util'
import { CommandError } from './command-error.ts'

export interface CommandSpec {
  /** positional argument names in order; a trailing `?` marks an optional one */
  args: readonly string[]
  /** flags this command takes besides the connection flags, each with its help line */
  flags: Readonly<Record<string, string>>
  summary: string
}

export interface ParsedLine {
  command: string
  args: string[]
  flags: Record<string, string>
  help: boolean
}

/** Flags every command takes: where the markets are. */
export const CONNECTION_FLAGS: Readonly<Record<string, string>> = {
  network: 'market network: local (default: the stack’s chain) | testnet | mainnet | competition-testnet',
  'api-key': 'Delphi’s REST API key (Delphi networks; env DELPHI_API_KEY)',
  rest: 'Delphi’s REST API base URL, instead of the network’s',
  subgraph: 'Delphi’s subgraph URL, instead of the network’s',
  deployment:
    'deployment document, a file or an URL (env TABSWARM_DEPLOYMENT; default http://127.0.0.1:5173/deployment.json)',
  rpc: 'JSON-RPC URL, instead of the deployment’s (or the Delphi network’s)',
  collateral: 'collateral token address (with --rpc and the four market addresses: no deployment document)',
  'dpm-factory': 'DPM factory address',
  'dpm-gateway': 'DPM gateway address',
  'lmsr-factory': 'LMSR factory address',
  'lmsr-gateway': 'LMSR gateway address',
}

const NEGATIVE = /^-(\d|\.\d)/

export function parseCommandLine(argv: readonly string[]): ParsedLine {
  const negative = argv.find((a) => NEGATIVE.test(a))
  if (negative !== undefined)
    throw new CommandError(
      'negative-amount',
      `Amounts cannot be negative (${negative}): use a positive amount.`,
    )
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' } },
      strict: false,
      allowPositionals: true,
      tokens: true,
    })
  } catch (err) {
    throw new CommandError('usage', (err as Error).message)
  }
  const flags: Record<string, string> = {}
  const positionals: string[] = []
  const tokens = parsed.tokens ?? []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.kind === 'positional') positionals.push(t.value)
    if (t.kind !== 'option' || t.name === 'help') continue
    let value = t.value
    // strict: false reads `--flag value` as a bare flag followed by a positional: join them back.
    const next = tokens[i + 1]
    if (value === undefined && next?.kind === 'positional') {
      value = next.value
      i++
    }
    if (value === undefined) throw new CommandError('usage', `--${t.name} needs a value.`)
    flags[t.name] = value
  }
  const [command = '', ...args] = positionals
  return { command, args, flags, help: parsed.values.help === true }
}

/** Checks `line` against `spec`: unknown flags and a wrong number of arguments are usage errors. */
export function checkLine(line: ParsedLine, spec: CommandSpec): void {
  for (const flag of Object.keys(line.flags))
    if (!(flag in spec.flags) && !(flag in CONNECTION_FLAGS))
      throw new CommandError(
        'usage',
        `${line.command} does not take --${flag}. ${usageLine(line.command, spec)}`,
      )
  const required = spec.args.filter((a) => !a.endsWith('?')).length
  if (line.args.length < required || line.args.length > spec.args.length)
    throw new CommandError(
      'usage',
      `${line.command} takes ${required === spec.args.length ? required : `${required} to ${spec.args.length}`} argument(s), not ${line.args.length}. ${usageLine(line.command, spec)}`,
    )
}

export function usageLine(command: string, spec: CommandSpec): string {
  const args = spec.args.map((a) => (a.endsWith('?') ? `[${a.slice(0, -1)}]` : `<${a}>`))
  const flags = Object.keys(spec.flags).map((f) => `[--${f} …]`)
  return `Usage: npm run markets -- ${[command, ...args, ...flags].join(' ')}`
}
