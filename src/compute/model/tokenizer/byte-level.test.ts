import { describe, expect, it } from 'vitest'
import { appendTokenBytes, BYTE_TO_CHAR, decodeUtf8Lossy, toByteLevel } from './byte-level.ts'

describe('byte-level table', () => {
  it('gives each of the 256 bytes its own printable character, as GPT-2 does', () => {
    expect(new Set(BYTE_TO_CHAR).size).toBe(256)
    expect(BYTE_TO_CHAR[0x41]).toBe('A')
    expect(BYTE_TO_CHAR[0x20]).toBe('Ġ')
    expect(BYTE_TO_CHAR[0x0a]).toBe('Ċ')
    expect(BYTE_TO_CHAR[0x09]).toBe('ĉ')
    expect(BYTE_TO_CHAR[0x00]).toBe('Ā')
    expect(BYTE_TO_CHAR[0xad]).toBe('Ń')
    expect(BYTE_TO_CHAR[0xff]).toBe('ÿ')
  })

  it('writes text as its UTF-8 bytes', () => {
    expect(toByteLevel(' é\n')).toBe('ĠÃ©Ċ')
  })

  it('reads byte-level tokens back to bytes, and other tokens as their own UTF-8', () => {
    const bytes: number[] = []
    appendTokenBytes('ĠÃ©', bytes)
    appendTokenBytes('<|im_start|>', bytes)
    appendTokenBytes('ĠĀ✓', bytes) // "✓" is outside the table: the whole token is taken as UTF-8 text
    expect(decodeUtf8Lossy(bytes)).toBe(' é<|im_start|>ĠĀ✓')
  })

  it('decodes invalid UTF-8 to U+FFFD', () => {
    expect(decodeUtf8Lossy([0x61, 0xff, 0xe2, 0x82, 0x62])).toBe('a\uFFFD\uFFFDb')
  })
})
