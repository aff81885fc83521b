import { multiaddr } from '@multiformats/multiaddr'
import { describe, expect, it } from 'vitest'
import { dataPathAddr, isDirect, transportOf } from './connection-kind.ts'

const relay = '/ip4/127.0.0.1/tcp/9090/ws/p2p/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN'
const peer = '12D3KooWHFrmLWTTDD4NodngtRMEVYgxrsDNqjqHVn7YyWWX8Da8'
const conn = (addr: string, limited = false) => ({
  remoteAddr: multiaddr(addr),
  limits: limited ? { seconds: 120, bytes: 131072n } : undefined,
})

describe('connection kind', () => {
  it('treats both ends of a WebRTC connection as direct, with the same data path', () => {
    const dialer = conn(`${relay}/p2p-circuit/webrtc/p2p/${peer}`)
    const answerer = conn(`/webrtc/p2p/${peer}`)
    expect([transportOf(dialer), transportOf(answerer)]).toEqual(['webrtc', 'webrtc'])
    expect(isDirect(dialer) && isDirect(answerer)).toBe(true)
    expect(dataPathAddr(dialer)).toBe(`/webrtc/p2p/${peer}`)
    expect(dataPathAddr(answerer)).toBe(`/webrtc/p2p/${peer}`)
  })

  it('treats a limited circuit connection as relayed', () => {
    const c = conn(`${relay}/p2p-circuit/p2p/${peer}`, true)
    expect(transportOf(c)).toBe('circuit')
    expect(isDirect(c)).toBe(false)
    expect(dataPathAddr(c)).toContain('/p2p-circuit')
  })

  it('treats WebSockets to the peer itself as direct', () => {
    const c = conn(`/ip4/127.0.0.1/tcp/19999/ws/p2p/${peer}`)
    expect(transportOf(c)).toBe('websockets')
    expect(isDirect(c)).toBe(true)
  })
})
