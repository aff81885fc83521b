import { describe, expect, it } from 'vitest'
import { planDial } from './dial-plan.ts'

const relay = '/ip4/127.0.0.1/tcp/9090/ws/p2p/12D3KooWRelay'
const A = '12D3KooWAaaa'
const B = '12D3KooWBbbb'

describe('planDial', () => {
  it('lets only the smaller peer id dial another browser peer', () => {
    const addrs = [`${relay}/p2p-circuit/webrtc/p2p/${B}`]
    expect(planDial(A, B, addrs)).toEqual({ addr: `${relay}/p2p-circuit/webrtc/p2p/${B}`, kind: 'webrtc' })
    expect(planDial(B, A, [`${relay}/p2p-circuit/webrtc/p2p/${A}`])).toBeNull()
  })

  it('rebuilds a circuit address that lost /webrtc and the target', () => {
    expect(planDial(A, B, [`${relay}/p2p-circuit`])?.addr).toBe(`${relay}/p2p-circuit/webrtc/p2p/${B}`)
  })

  it('dials a peer with a direct WebSockets address whichever id is smaller', () => {
    const ws = '/ip4/127.0.0.1/tcp/19999/ws'
    expect(planDial(B, A, [ws])).toEqual({ addr: `${ws}/p2p/${A}`, kind: 'websockets' })
    expect(planDial(B, A, [`${ws}/p2p/${A}`])?.addr).toBe(`${ws}/p2p/${A}`)
  })

  it('never dials itself or a peer without usable addresses', () => {
    expect(planDial(A, A, [`${relay}/p2p-circuit`])).toBeNull()
    expect(planDial(A, B, ['/ip4/127.0.0.1/udp/1/webrtc-direct'])).toBeNull()
    expect(planDial(A, B, [])).toBeNull()
  })
})
