// One market command from its command line to its printed JSON and exit status: parse, check the
// line, connect the backend, run. Every failure becomes the error object; nothing throws out of here.
import type { MarketBackend } from './backend.ts'
import { CommandError } from './command-error.ts'
import { checkLine, CONNECTION_FLAGS, parseCommandLine, usageLine } from './command-line.ts'
import { COMMANDS } from './commands/index.ts'
import { connectBackend } from './connect.ts'
import { errorOutput, successOutput, toJson, type Printed } from './output.ts'
import { accountFromEnv, missingKeyError, PRIVATE_KEY_ENV } from './signer.ts'

export type Connect = (
  flags: Record<string, string>,
  env: Record<string, string | undefined>,
) => Promise<MarketBackend>

function helpOutput(): Printed {
  return {
    text: toJson({
      ok: true,
      command: 'help',
      commands: Object.entries(COMMANDS).map(([name, c]) => ({
        usage: usageLine(name, c.spec),
        summary: c.spec.summary,
        flags: c.spec.flags,
        signs: c.signs,
      })),
      connection: CONNECTION_FLAGS,
      signing: `write commands sign with the key in ${PRIVATE_KEY_ENV} (never a flag)`,
    }),
    exitCode: 0,
  }
}

export async function runMarkets(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  connect: Connect = connectBackend,
): Promise<Printed> {
  try {
    const line = parseCommandLine(argv)
    if (line.help || line.command === '' || line.command === 'help') return helpOutput()
    const command = COMMANDS[line.command]
    if (!command)
      throw new CommandError(
        'usage',
        `Unknown command “${line.command}”: use one of ${Object.keys(COMMANDS).join(', ')} (--help lists them).`,
      )
    checkLine(line, command.spec)
    if (command.signs && accountFromEnv(env) === undefined) throw missingKeyError(line.command)
    const backend = await connect(line.flags, env)
    return successOutput(line.command, {
      network: backend.network,
      chainId: backend.chainId,
      ...(await command.run(backend, { args: line.args, flags: line.flags })),
    })
  } catch (err) {
    return errorOutput(err)
  }
}
