// In-memory rollout sharing: the SwarmComm that tests, the headless simulation and the benchmarks use
// in place of gossipsub. Delivery is asynchronous (a later microtask) and never to the sender, as with
// gossipsub; bodies are cloned so no peer can change another's copy.
import type { RolloutsBody } from './rollouts.ts'

export type RolloutsHandler = (from: string, round: number, body: unknown) => void

/** How a peer shares rollouts: publish to the swarm, hear the others. libp2p and in-memory implement it. */
export interface SwarmComm {
  readonly peerId: string
  publishRollouts(round: number, body: RolloutsBody): Promise<void>
  /** bodies arrive unchecked (`unknown`): the receiver validates them; returns an unsubscribe */
  onRollouts(handler: RolloutsHandler): () => void
}

export interface MemoryHub {
  join(peerId: string): SwarmComm
  /** messages delivered so far, for the benchmarks' traffic numbers */
  readonly delivered: number
}

export function createMemoryHub(): MemoryHub {
  const handlers = new Map<string, Set<RolloutsHandler>>()
  let delivered = 0
  return {
    get delivered() {
      return delivered
    },
    join(peerId) {
      const own = new Set<RolloutsHandler>()
      handlers.set(peerId, own)
      return {
        peerId,
        async publishRollouts(round, body) {
          const json = JSON.stringify(body)
          await Promise.resolve()
          for (const [id, set] of handlers)
            if (id !== peerId)
              for (const h of set) {
                delivered++
                h(peerId, round, JSON.parse(json) as unknown)
              }
        },
        onRollouts(handler) {
          own.add(handler)
          return () => own.delete(handler)
        },
      }
    },
  }
}
