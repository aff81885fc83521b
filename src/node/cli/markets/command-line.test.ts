import { describe, expect, it } from 'vitest'
import { parseShares, parseTokens } from './amounts.ts'
import { checkLine, parseCommandLine } from './command-line.ts'
import { buyCommand } from './commands/buy.ts'
import { errorOutput, successOutput } from './output.ts'

const codeOf = (work: () => unknown): string | null => {
  try {
    work()
    return null
  } catch (err) {
    return (err as { code: string }).code
  }
}

describe('market command line', () => {
  it('splits the command, its arguments and its flags (spaced or with =)', () => {
    expect(parseCommandLine(['buy', 'dpm:0', 'Yes', '2.5', '--max-cost', '30', '--network=local'])).toEqual({
      command: 'buy',
      args: ['dpm:0', 'Yes', '2.5'],
      flags: { 'max-cost': '30', network: 'local' },
      help: false,
    })
    expect(parseCommandLine(['--help']).help).toBe(true)
  })

  it('names a negative amount, a flag without a value, an unknown flag and a wrong argument count', () => {
    expect(codeOf(() => parseCommandLine(['buy', 'dpm:0', 'Yes', '-2']))).toBe('negative-amount')
    expect(codeOf(() => parseCommandLine(['buy', 'dpm:0', 'Yes', '2', '--max-cost', '-.5']))).toBe(
      'negative-amount',
    )
    expect(codeOf(() => parseCommandLine(['buy', 'dpm:0', 'Yes', '2', '--max-cost']))).toBe('usage')
    const line = (argv: string[]) => () => checkLine(parseCommandLine(argv), buyCommand.spec)
    expect(codeOf(line(['buy', 'dpm:0', 'Yes', '2', '--min-proceeds', '1']))).toBe('usage')
    expect(codeOf(line(['buy', 'dpm:0', 'Yes']))).toBe('usage')
    expect(codeOf(line(['buy', 'dpm:0', 'Yes', '2', '--rpc', 'http://x']))).toBeNull()
  })

  it('parses amounts exactly in human units and refuses zero and junk', () => {
    expect(parseShares('0.000000000000000001')).toBe(1n)
    expect(parseShares('1,000.5')).toBe(1_000_500_000_000_000_000_000n)
    expect(parseTokens('12.345678', { symbol: 'tUSD', decimals: 6 }, '--max-cost')).toBe(12_345_678n)
    expect(codeOf(() => parseTokens('1.2345678', { symbol: 'tUSD', decimals: 6 }, '--max-cost'))).toBe(
      'bad-amount',
    )
    expect(codeOf(() => parseShares('0.0'))).toBe('zero-amount')
    expect(codeOf(() => parseShares('1e3'))).toBe('bad-amount')
  })

  it('prints results with bigints as strings and any failure as a coded sentence', () => {
    expect(JSON.parse(successOutput('show', { n: 5n }).text)).toEqual({ ok: true, command: 'show', n: '5' })
    const failed = errorOutput(new TypeError('boom'))
    expect(failed.exitCode).toBe(1)
    expect(JSON.parse(failed.text)).toEqual({ ok: false, error: 'boom', code: 'failed' })
  })
})
