import { describe, expect, it } from 'vitest'
import { parseSetting } from './setting-limits.ts'

describe('parseSetting', () => {
  it('takes values inside the limits', () => {
    expect(parseSetting('temperature', ' 0.7 ')).toEqual({ value: 0.7 })
    expect(parseSetting('samples', '16')).toEqual({ value: 16 })
    expect(parseSetting('topP', '1')).toEqual({ value: 1 })
  })

  it('names the setting and what is wrong', () => {
    expect(parseSetting('samples', '')).toEqual({ error: 'samples G must be a number' })
    expect(parseSetting('topK', 'ten')).toEqual({ error: 'top-k must be a number' })
    expect(parseSetting('maxTokens', '12.5')).toEqual({ error: 'max tokens must be a whole number' })
    expect(parseSetting('temperature', '3')).toEqual({ error: 'temperature must be between 0 and 2' })
    expect(parseSetting('samples', '0')).toEqual({ error: 'samples G must be between 1 and 16' })
  })
})
