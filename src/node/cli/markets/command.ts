// What every market command module exports: its command-line spec and what it does with a backend.
import type { MarketBackend } from './backend.ts'
import type { CommandSpec } from './command-line.ts'
import type { CommandResult } from './output.ts'

export interface CommandInput {
  args: string[]
  flags: Record<string, string>
}

export interface MarketCommand {
  spec: CommandSpec
  /** true: needs TABSWARM_PRIVATE_KEY (checked before anything is read) */
  signs: boolean
  run(backend: MarketBackend, input: CommandInput): Promise<CommandResult>
}
