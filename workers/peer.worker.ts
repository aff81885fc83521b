// The peer worker: runs the swarm protocol (for now, presence) with the main-thread libp2p node as its
// only network, through the bridge port it receives in the init message. Timers live here rather than on
// the page so a hidden tab keeps its beat.
import { animalName } from '../src/identity/animal.ts'
import { createBridgeClient, type BridgeClient } from '../src/net/bridge-client.ts'
import type { PeerWorkerCommand, PeerWorkerEvent } from '../src/swarm/peer-worker-messages.ts'
import { createPresenceService, type PresenceService } from '../src/swarm/presence-service.ts'

// The project's TypeScript lib is DOM, where `self` is a Window; this is the slice of a dedicated
// worker's global scope the worker uses.
interface WorkerScope {
  onmessage: ((event: MessageEvent<PeerWorkerCommand>) => void) | null
  postMessage(message: PeerWorkerEvent): void
  close(): void
}
const scope = self as unknown as WorkerScope

let running: { bridge: BridgeClient; presence: PresenceService } | undefined

const post = (message: PeerWorkerEvent): void => scope.postMessage(message)

scope.onmessage = ({ data: command }) => {
  // The main thread sends 'init' first; a command before it, or a second 'init', has nothing to act on.
  if (command.type === 'init') {
    if (running) return
    const bridge = createBridgeClient(command.port)
    const presence = createPresenceService({
      bridge,
      config: command.config,
      swarmId: command.swarmId,
      self: command.self,
      appVersion: command.appVersion,
      capabilities: command.capabilities,
      nameOf: animalName,
      onState: (state) => post({ type: 'state', state }),
    })
    running = { bridge, presence }
    presence.start().catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error)
      post({
        type: 'error',
        message: `Could not join the swarm's presence topic (${reason}). Reload the page to retry.`,
      })
    })
    return
  }
  if (!running) return
  const { bridge, presence } = running
  if (command.type === 'pause') presence.pause()
  else if (command.type === 'resume') presence.resume()
  else if (command.type === 'leave') {
    void presence.leave().then(() => {
      bridge.close()
      post({ type: 'left' })
      scope.close()
    })
  }
}
