import { describe, expect, it } from 'vitest'
import { GOSSIP_KINDS, MAX_MESSAGE_BYTES, isGossipKind, parseTopic, topicFor } from './topics.ts'

const SWARM = 'ab'.repeat(32)

describe('topicFor / parseTopic', () => {
  it('names a topic per kind in the documented format and parses it back', () => {
    expect(topicFor(SWARM, 'presence')).toBe(`/tabswarm/${SWARM}/presence/1`)
    for (const kind of GOSSIP_KINDS)
      expect(parseTopic(topicFor(SWARM, kind))).toEqual({ swarmId: SWARM, kind })
  })

  it.each([
    ['another protocol', `/meshsub/${SWARM}/presence/1`],
    ['an unknown kind', `/tabswarm/${SWARM}/chat/1`],
    ['another topic version', `/tabswarm/${SWARM}/presence/2`],
    ['a missing version', `/tabswarm/${SWARM}/presence`],
    ['an extra segment', `/tabswarm/${SWARM}/presence/1/x`],
    ['an empty swarm id', '/tabswarm//presence/1'],
    ['an empty string', ''],
  ])('refuses %s', (_, topic) => {
    expect(parseTopic(topic)).toBeNull()
  })

  it('refuses swarm ids that are not one path segment', () => {
    expect(() => topicFor('', 'presence')).toThrow(RangeError)
    expect(() => topicFor('a/b', 'presence')).toThrow(RangeError)
  })

  it('knows exactly the five kinds', () => {
    expect(GOSSIP_KINDS.every(isGossipKind)).toBe(true)
    expect(isGossipKind('chat')).toBe(false)
    expect(isGossipKind(1)).toBe(false)
  })
})

describe('MAX_MESSAGE_BYTES', () => {
  it('caps every kind below the 4 MiB frame gossipsub accepts by default', () => {
    for (const kind of GOSSIP_KINDS) {
      expect(MAX_MESSAGE_BYTES[kind]).toBeGreaterThan(0)
      expect(MAX_MESSAGE_BYTES[kind]).toBeLessThan(4 * 1024 * 1024)
    }
    expect(MAX_MESSAGE_BYTES.presence).toBe(2048)
  })
})
