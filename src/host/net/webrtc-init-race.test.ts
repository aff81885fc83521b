import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// A stand-in for the browser's RTCPeerConnection: its data channels are event targets whose state the
// test sets, like a channel the remote side opened and closed before libp2p started listening.
class FakeChannel extends EventTarget {
  readyState: RTCDataChannelState = 'connecting'
  constructor(readonly label: string) {
    super()
  }
}
class FakePeerConnection {
  createDataChannel(label: string): FakeChannel {
    return new FakeChannel(label)
  }
}

const g = globalThis as { RTCPeerConnection?: unknown }
let installInitChannelFix: () => void

beforeAll(async () => {
  g.RTCPeerConnection = FakePeerConnection
  ;({ installInitChannelFix } = await import('./webrtc-init-race.ts'))
  installInitChannelFix()
})
afterAll(() => {
  delete g.RTCPeerConnection
})

const nextMicrotask = () => new Promise<void>((r) => queueMicrotask(r))

describe('init channel race fix', () => {
  it("calls a late 'open' listener once when the channel already opened", async () => {
    const ch = new FakePeerConnection().createDataChannel('init')
    ch.readyState = 'open'
    let calls = 0
    ch.addEventListener('open', () => calls++)
    await nextMicrotask()
    expect(calls).toBe(1)
    ch.dispatchEvent(new Event('open')) // the replayed listener was removed: no double call
    expect(calls).toBe(1)
  })

  it("calls late 'open' and 'close' listeners when the remote already closed the channel", async () => {
    const ch = new FakePeerConnection().createDataChannel('init')
    ch.readyState = 'closed'
    const seen: string[] = []
    ch.addEventListener('open', (e) => seen.push(e.type))
    ch.addEventListener('close', (e) => seen.push(e.type))
    await nextMicrotask()
    expect(seen).toEqual(['open', 'close'])
  })

  it('leaves listeners alone while the channel is still connecting, and other channels entirely', async () => {
    const init = new FakePeerConnection().createDataChannel('init')
    const other = new FakePeerConnection().createDataChannel('/meshsub/1.2.0')
    other.readyState = 'open'
    let calls = 0
    init.addEventListener('open', () => calls++)
    other.addEventListener('open', () => calls++)
    await nextMicrotask()
    expect(calls).toBe(0)
    init.readyState = 'open'
    init.dispatchEvent(new Event('open'))
    expect(calls).toBe(1)
  })
})
