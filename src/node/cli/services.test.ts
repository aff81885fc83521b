import { describe, expect, it } from 'vitest'
import { startServices } from './services.ts'
import type { Service } from './services.ts'

const recorder = () => {
  const log: string[] = []
  const service = (name: string, failStart = false): Service<string[]> => ({
    name,
    async start(ctx) {
      if (failStart) throw new Error(`${name} broke`)
      ctx.push(name)
      log.push(`start ${name}`)
      return async () => void log.push(`stop ${name}`)
    },
  })
  return { log, service }
}

describe('startServices', () => {
  it('starts in order, shares the context and stops in reverse', async () => {
    const { log, service } = recorder()
    const ctx: string[] = []
    const stop = await startServices([service('a'), service('b'), service('c')], ctx)
    expect(ctx).toEqual(['a', 'b', 'c'])
    await stop()
    expect(log).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a'])
  })

  it('stops what started when a later service fails, and rethrows its error', async () => {
    const { log, service } = recorder()
    await expect(startServices([service('a'), service('b'), service('c', true)], [])).rejects.toThrow(
      'c broke',
    )
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a'])
  })

  it('keeps stopping after a stop fails and reports which one', async () => {
    const { log, service } = recorder()
    const broken: Service<string[]> = {
      name: 'x',
      start: async () => () => Promise.reject(new Error('stuck')),
    }
    const stop = await startServices([service('a'), broken, service('b')], [])
    await expect(stop()).rejects.toThrow('x did not stop cleanly: stuck')
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a'])
  })
})
