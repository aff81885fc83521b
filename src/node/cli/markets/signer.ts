// The signing key comes from the environment only: a flag would land in the shell history.
import { isHex, type Account } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { CommandError } from './command-error.ts'

export const PRIVATE_KEY_ENV = 'TABSWARM_PRIVATE_KEY'

/** The account of TABSWARM_PRIVATE_KEY, or undefined when it is not set (read-only commands). */
export function accountFromEnv(env: Record<string, string | undefined>): Account | undefined {
  const raw = env[PRIVATE_KEY_ENV]?.trim()
  if (!raw) return undefined
  const key = raw.startsWith('0x') ? raw : `0x${raw}`
  if (!isHex(key) || key.length !== 66)
    throw new CommandError('bad-key', `${PRIVATE_KEY_ENV} must be a private key: 0x and 64 hex digits.`)
  try {
    return privateKeyToAccount(key)
  } catch {
    throw new CommandError('bad-key', `${PRIVATE_KEY_ENV} is not a valid secp256k1 private key.`)
  }
}

/** The error of a write without a key, naming the variable to set. */
export const missingKeyError = (command: string): CommandError =>
  new CommandError(
    'no-key',
    `${command} signs a transaction: set ${PRIVATE_KEY_ENV} to the wallet’s private key (0x and 64 hex digits).`,
  )
