import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GENERATED_DIR, generateBindings } from '../../../contracts/build.ts'
import { swarmCoordinatorAbi, swarmCoordinatorBytecode } from './generated/SwarmCoordinator.ts'

describe('generated contract bindings', () => {
  it('are up to date with contracts/src (else run npm run contracts:build)', async () => {
    const fresh = await generateBindings()
    const committed = readdirSync(GENERATED_DIR).filter((f) => f.endsWith('.ts'))
    expect(committed.sort()).toEqual([...fresh.keys()].sort())
    for (const [file, text] of fresh) {
      expect(readFileSync(join(GENERATED_DIR, file), 'utf8'), file).toBe(text)
    }
  }, 60_000)

  it('expose the coordinator ABI with its registration and round functions', () => {
    const names = swarmCoordinatorAbi.filter((item) => item.type === 'function').map((item) => item.name)
    for (const name of ['registerPeer', 'currentRound', 'submitReward', 'submitWinners', 'getBootnodes']) {
      expect(names).toContain(name)
    }
    expect(swarmCoordinatorBytecode).toMatch(/^0x[0-9a-f]+$/)
  })
})
