// Node libp2p peers that do what a tab does with a relay, minus WebRTC: connect over WebSockets, hold a
// circuit reservation and advertise themselves on the pubsub discovery topic. For the relay's tests and
// benchmarks. They run in a child process (forkPeerProcess) so that the relay's own memory can be
// measured apart from theirs.
import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ChildReply, ParentCommand } from './reserving-peers-process.ts'
import { nextReply } from '../cli/next-reply.ts'
import { forkPeerProcess } from '../cli/fork-peer-process.ts'

export interface ReservingPeers {
  peerIds: string[]
  /** each peer's /p2p-circuit address through the relay */
  circuitAddrs: string[]
  /**
   * Peer `from` dials peer `to` through the relay, sends `bytes` bytes on an echo protocol and reads them
   * back: 2 × `bytes` of payload cross the relay.
   */
  echo(from: number, to: number, bytes: number): Promise<void>
  /** the peer ids peer `peer` has learned from discovery adverts (forwarded by the relay's gossipsub) */
  discovered(peer: number): Promise<string[]>
  /** stops the peers and waits for the child process to exit */
  stop(): Promise<void>
}

/** Long enough for dozens of peers to connect and reserve on a busy CI machine. */
const READY_TIMEOUT_MS = 60_000

const childEntry = fileURLToPath(new URL('./reserving-peers-process.ts', import.meta.url))

/** `readyTimeoutMs`: how long all `count` may take to hold a reservation before this rejects */
export async function spawnReservingPeers(
  relayAddr: string,
  count: number,
  readyTimeoutMs = READY_TIMEOUT_MS,
): Promise<ReservingPeers> {
  const { child, exited } = forkPeerProcess(childEntry, [relayAddr, String(count)])
  try {
    const ready = await nextReply<ChildReply>(child, readyTimeoutMs, 'reserving peers')
    if (ready.type !== 'ready') throw new Error(`reserving peers failed to start: ${describe(ready)}`)
    return {
      peerIds: ready.peerIds,
      circuitAddrs: ready.circuitAddrs,
      async echo(from, to, bytes) {
        send(child, { type: 'echo', from, to, bytes })
        const reply = await nextReply<ChildReply>(child, READY_TIMEOUT_MS, 'reserving peers')
        if (reply.type !== 'echoed') throw new Error(`relayed echo failed: ${describe(reply)}`)
      },
      async discovered(peer) {
        send(child, { type: 'discovered', peer })
        const reply = await nextReply<ChildReply>(child, READY_TIMEOUT_MS, 'reserving peers')
        if (reply.type !== 'discovered') throw new Error(`discovery query failed: ${describe(reply)}`)
        return reply.peerIds
      },
      async stop() {
        if (child.connected) send(child, { type: 'stop' })
        await exited
      },
    }
  } catch (err) {
    child.kill()
    await exited
    throw err
  }
}

const send = (child: ChildProcess, command: ParentCommand): void => void child.send(command)

const describe = (reply: ChildReply): string => (reply.type === 'error' ? reply.message : reply.type)
