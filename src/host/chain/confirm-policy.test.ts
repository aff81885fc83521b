import { describe, expect, it } from 'vitest'
import { needsConfirmation } from './confirm-policy.ts'

describe('needsConfirmation', () => {
  it('always asks before a burner trade, even with swarm submissions allowed', () => {
    expect(needsConfirmation('burner', 'trade', false)).toBe(true)
    expect(needsConfirmation('burner', 'trade', true)).toBe(true)
  })

  it('asks before burner swarm submissions until the user allows them', () => {
    expect(needsConfirmation('burner', 'swarm', false)).toBe(true)
    expect(needsConfirmation('burner', 'swarm', true)).toBe(false)
  })

  it('does not ask again for a click in the wallet panel', () => {
    expect(needsConfirmation('burner', 'direct', false)).toBe(false)
  })

  it('leaves confirmation to an injected wallet', () => {
    for (const kind of ['trade', 'swarm', 'direct'] as const)
      expect(needsConfirmation('injected', kind, false)).toBe(false)
  })
})
