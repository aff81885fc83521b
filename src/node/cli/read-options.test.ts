import { describe, expect, it } from 'vitest'
import { readOptions, UsageError, usageText } from './read-options.ts'

const specs = {
  host: { kind: 'string', env: 'T_HOST', help: 'interface' },
  port: { kind: 'port', env: 'T_PORT', help: 'port' },
  maxPeers: { kind: 'count', env: 'T_MAX_PEERS', help: 'peers' },
  announce: { kind: 'list', env: 'T_ANNOUNCE', help: 'addresses' },
  rebuild: { kind: 'flag', env: 'T_REBUILD', help: 'build again' },
} as const

describe('readOptions', () => {
  it('reads kebab-case flags, converted to their kinds', () => {
    const argv = [
      '--host',
      '0.0.0.0',
      '--port=9',
      '--max-peers',
      '3',
      '--announce',
      '/a',
      '--announce',
      '/b',
      '--rebuild',
    ]
    expect(readOptions(specs, argv, {})).toEqual({
      options: { host: '0.0.0.0', port: 9, maxPeers: 3, announce: ['/a', '/b'], rebuild: true },
      help: false,
    })
  })

  it('falls back to the environment, flags winning', () => {
    const env = { T_HOST: '::', T_PORT: '80', T_ANNOUNCE: '/a, /b', T_REBUILD: '1' }
    expect(readOptions(specs, ['--port', '81'], env).options).toEqual({
      host: '::',
      port: 81,
      announce: ['/a', '/b'],
      rebuild: true,
    })
    expect(readOptions(specs, [], {}).options).toEqual({})
  })

  it('names the flag or variable with a bad value', () => {
    expect(() => readOptions(specs, ['--port', '70000'], {})).toThrow(
      '--port must be a port number from 0 to 65535',
    )
    expect(() => readOptions(specs, [], { T_MAX_PEERS: '0' })).toThrow('T_MAX_PEERS must be a whole number')
    expect(() => readOptions(specs, ['--colour'], {})).toThrow(UsageError)
  })

  it('recognises -h and lists every option in the help', () => {
    expect(readOptions(specs, ['-h'], {}).help).toBe(true)
    const text = usageText('cmd', 'does things', specs)
    expect(text).toContain('--max-peers <n>')
    expect(text).toContain('(env T_ANNOUNCE)')
  })
})
