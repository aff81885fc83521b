import { createServer } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { swarmIdOf } from '../../core/config/swarm-config.ts'
import { PortInUseError } from '../relay/listen-http.ts'
import { startStack } from './stack.ts'

// Fixed ports for this file only (19xxx range), so parallel test files never collide.
const RELAY_PORT = 19230
const RELAY_HTTP_PORT = 19231
const APP_PORT = 19232

let dist: string
beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'stack-'))
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>stack</title>')
})
afterAll(() => rm(dist, { recursive: true, force: true }))

const portIsFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })

describe('startStack', () => {
  it('starts the relay and the app with a config pointing at the relay, and stops both', async () => {
    const stack = await startStack({
      relayPort: RELAY_PORT,
      appPort: APP_PORT,
      dist,
      config: { roundLengthMs: 5000 },
    })
    try {
      expect(stack.url).toBe(`http://127.0.0.1:${APP_PORT}/`)
      expect(stack.config.relays).toEqual(stack.relay.multiaddrs)
      expect(stack.config.relays[0]).toMatch(new RegExp(`^/ip4/127.0.0.1/tcp/${RELAY_PORT}/ws/p2p/12D3`))
      expect(stack.config.roundLengthMs).toBe(5000)
      expect(stack.swarmId).toBe(swarmIdOf(stack.config))
      expect(await (await fetch(stack.url)).text()).toContain('<title>stack</title>')
      expect(await (await fetch(new URL('/swarm.json', stack.url))).json()).toEqual(stack.config)
      expect((await fetch(`http://127.0.0.1:${RELAY_HTTP_PORT}/health`)).status).toBe(200)
    } finally {
      await stack.stop()
    }
    for (const port of [RELAY_PORT, RELAY_HTTP_PORT, APP_PORT])
      expect(await portIsFree(port), String(port)).toBe(true)
  })

  it('stops the relay again when the app port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(APP_PORT, '127.0.0.1', resolve))
    try {
      await expect(startStack({ relayPort: RELAY_PORT, appPort: APP_PORT, dist })).rejects.toThrow(
        PortInUseError,
      )
      expect(await portIsFree(RELAY_PORT)).toBe(true)
      expect(await portIsFree(RELAY_HTTP_PORT)).toBe(true)
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })
})
