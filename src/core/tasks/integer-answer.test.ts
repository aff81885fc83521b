import { describe, expect, it } from 'vitest'
import { canonicalInteger } from './integer-answer.ts'

describe('canonicalInteger', () => {
  it.each([
    ['42', '42'],
    [' +42 ', '42'],
    ['-0', '0'],
    ['007', '7'],
    ['1,234,567', '1234567'],
    ['1 234', '1234'],
    ['1_000', '1000'],
    ['-98765432109876543210', '-98765432109876543210'],
  ])('reads %j as %s', (text, value) => {
    expect(canonicalInteger(text)).toBe(value)
  })

  it.each(['', '4.0', '1 2', '12,34', '1e3', 'forty-two', '0x10', '--1'])('refuses %j', (text) => {
    expect(canonicalInteger(text)).toBeUndefined()
  })
})
