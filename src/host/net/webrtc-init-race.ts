// Works around a race in @libp2p/webrtc 6.0.x: the dialer creates an 'init' data channel, waits for
// its 'open' event, closes it and waits for 'close'. When the remote side closes the channel before
// the dialer starts listening, the event has already fired, the dialer waits forever and the dial
// fails with "signal timed out" (5-tab meshes took ~18 s or failed; runtime-notes.md §6).
//
// The fix: for channels labelled 'init', a listener added for 'open' or 'close' after the channel
// has already reached that state is called once on the next microtask, as if it had been listening.
// It patches RTCPeerConnection.prototype, so it works whenever it runs before the first dial.

const INIT_LABEL = 'init'
let installed = false

export function installInitChannelFix(): void {
  if (installed || typeof RTCPeerConnection === 'undefined') return
  installed = true
  const create = RTCPeerConnection.prototype.createDataChannel
  RTCPeerConnection.prototype.createDataChannel = function (
    this: RTCPeerConnection,
    label: string,
    init?: RTCDataChannelInit,
  ): RTCDataChannel {
    const channel = create.call(this, label, init)
    if (label === INIT_LABEL) replayMissedEvents(channel)
    return channel
  }
}

function replayMissedEvents(channel: RTCDataChannel): void {
  const add = channel.addEventListener.bind(channel)
  channel.addEventListener = ((
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) => {
    if (!listener) return
    add(type, listener, options)
    const missed =
      (type === 'open' && channel.readyState !== 'connecting') ||
      (type === 'close' && channel.readyState === 'closed')
    if (!missed) return
    queueMicrotask(() => {
      channel.removeEventListener(type, listener, options)
      const event = new Event(type)
      if (typeof listener === 'function') listener.call(channel, event)
      else listener.handleEvent(event)
    })
  }) as RTCDataChannel['addEventListener']
}
