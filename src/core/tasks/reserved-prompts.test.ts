import { describe, expect, it } from 'vitest'
import { generateReasoningTask } from './generate-reasoning-task.ts'
import { REASONING_FAMILIES } from './reasoning-families.ts'
import { isReservedPrompt } from './reserved-prompts.ts'

describe('isReservedPrompt', () => {
  it('reserves about 1/8 of distinct prompts, and the same text always the same way', () => {
    const prompts = new Set<string>()
    for (const family of REASONING_FAMILIES)
      for (let seed = 0; seed < 400; seed++) prompts.add(generateReasoningTask(family.name, 2, seed).prompt)
    const reserved = [...prompts].filter(isReservedPrompt).length
    expect(reserved / prompts.size).toBeGreaterThan(0.09)
    expect(reserved / prompts.size).toBeLessThan(0.16)
  })

  it('goes by the first byte of SHA-256 of the text', () => {
    // SHA-256('abc') starts ba…, SHA-256('') starts e3…: neither reserved; the reserved set is the hash's, not a list
    expect(isReservedPrompt('abc')).toBe(false)
    expect(isReservedPrompt('')).toBe(false)
    expect(isReservedPrompt('p0')).toBe(true) // SHA-256('p0') starts below 0x20
  })
})
