// Keeps this node connected to a relay from the swarm config: dials them in turn, redials with
// exponential backoff when the connection drops, and reports the state the UI shows. Direct WebRTC
// links and gossip do not need the relay once established; only newcomers do.
import { multiaddr } from '@multiformats/multiaddr'
import type { RelayState } from '../../peer/peer/bridge-protocol.ts'
import type { BrowserNode } from './create-browser-node.ts'
import { RELAY_BACKOFF_MAX_MS, RELAY_BACKOFF_MIN_MS, RELAY_UNREACHABLE_AFTER } from './constants.ts'

export interface RelayKeeper {
  state(): RelayState
  /** peer ids of the relays we know (from the config or learned on connect) */
  relayIds(): ReadonlySet<string>
  stop(): void
}

export interface StartRelayKeeperParameters {
  node: BrowserNode
  relays: readonly string[]
  onState: (state: RelayState) => void
}

export function startRelayKeeper({ node, relays, onState }: StartRelayKeeperParameters): RelayKeeper {
  const ids = new Set<string>()
  for (const r of relays) {
    const id = multiaddr(r)
      .getComponents()
      .findLast((c) => c.name === 'p2p')?.value
    if (id) ids.add(id)
  }
  let state: RelayState = 'connecting'
  let failures = 0
  let next = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false

  const set = (s: RelayState): void => {
    if (s === state) return
    state = s
    onState(s)
  }
  const connected = (): boolean =>
    [...ids].some((id) => node.getConnections().some((c) => c.remotePeer.toString() === id))
  const reserved = (): boolean => node.getMultiaddrs().some((a) => a.toString().includes('/p2p-circuit'))

  const refresh = (): void => {
    if (!connected()) return
    set(reserved() ? 'reserved' : 'connected')
  }

  const attempt = async (): Promise<void> => {
    timer = undefined
    if (stopped || connected()) return
    if (relays.length === 0) return set('unreachable')
    const addr = relays[next++ % relays.length]!
    try {
      const conn = await node.dial(multiaddr(addr), { signal: AbortSignal.timeout(10_000) })
      ids.add(conn.remotePeer.toString())
      failures = 0
      refresh()
    } catch {
      failures++
      if (failures >= RELAY_UNREACHABLE_AFTER) set('unreachable')
      schedule()
    }
  }
  const schedule = (): void => {
    if (stopped || timer) return
    const delay = Math.min(RELAY_BACKOFF_MAX_MS, RELAY_BACKOFF_MIN_MS * 2 ** Math.min(failures, 10))
    timer = setTimeout(() => void attempt(), delay)
  }

  const onDisconnect = (e: CustomEvent<{ toString(): string }>): void => {
    if (!ids.has(e.detail.toString()) || connected()) return
    set(failures >= RELAY_UNREACHABLE_AFTER ? 'unreachable' : 'connecting')
    schedule()
  }
  node.addEventListener('peer:disconnect', onDisconnect)
  node.addEventListener('self:peer:update', refresh)
  void attempt()

  return {
    state: () => state,
    relayIds: () => ids,
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      node.removeEventListener('peer:disconnect', onDisconnect)
      node.removeEventListener('self:peer:update', refresh)
    },
  }
}
