// In-memory rollout sharing: the SwarmComm that tests, the headless simulation and the benchmarks use
// in place of gossipsub. Delivery is asynchronous (a later microtask) and never to the sender, as with
// gossipsub; bodies are cloned so no peer can change another's copy.
import type { RolloutsBody } from '../protocol/rollouts.ts'

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
  /**
   * Resolves once every peer that joined has published for `round` (its messages delivered): the
   * collection window of a simulation where every peer takes part in every round.
   */
  allPublished(round: number): Promise<void>
}

export function createMemoryHub(): MemoryHub {
  const handlers = new Map<string, Set<RolloutsHandler>>()
  const publishers = new Map<number, Set<string>>()
  const waiting = new Map<number, (() => void)[]>()
  let delivered = 0
  const complete = (round: number) => (publishers.get(round)?.size ?? 0) >= handlers.size
  const published = (round: number, peerId: string) => {
    let set = publishers.get(round)
    if (!set) publishers.set(round, (set = new Set()))
    set.add(peerId)
    if (complete(round)) {
      for (const resolve of waiting.get(round) ?? []) resolve()
      waiting.delete(round)
    }
  }
  return {
    get delivered() {
      return delivered
    },
    allPublished(round) {
      if (complete(round)) return Promise.resolve()
      return new Promise((resolve) => waiting.set(round, [...(waiting.get(round) ?? []), resolve]))
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
          published(round, peerId)
        },
        onRollouts(handler) {
          own.add(handler)
          return () => own.delete(handler)
        },
      }
    },
  }
}
