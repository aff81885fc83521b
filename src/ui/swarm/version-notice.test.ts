import { describe, expect, it } from 'vitest'
import { versionNotice } from './version-notice.ts'

describe('versionNotice', () => {
  it('says nothing until a message of a newer version was ignored', () => {
    expect(versionNotice({})).toBeNull()
    expect(versionNotice({ stale: 3 })).toBeNull()
  })

  it('counts the ignored messages and says what to do', () => {
    expect(versionNotice({ 'unknown-version': 1 })).toMatch(
      /^1 message from a newer protocol version was ignored/,
    )
    const many = versionNotice({ 'unknown-version': 12, stale: 1 })
    expect(many).toMatch(/^12 messages from a newer protocol version were ignored/)
    expect(many).toContain('Update this one')
  })
})
