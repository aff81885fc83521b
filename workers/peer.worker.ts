// The peer worker: runs the swarm protocol (presence, and the learning loop when the swarm config has a
// learning section: src/peer/peer/tab-learning.ts) with the main-thread libp2p node as its only network,
// through the bridge port it receives in the init message. Timers live here rather than on the page so
// a hidden tab keeps its beat.
import { animalName } from '../src/core/identity/animal.ts'
import { createBridgeClient, type BridgeClient } from '../src/peer/peer/bridge-client.ts'
import type { PeerWorkerCommand, PeerWorkerEvent } from '../src/core/protocol/peer-worker-messages.ts'
import { createPresenceService, type PresenceService } from '../src/peer/peer/presence-service.ts'
import type { LearningLoop } from '../src/core/learning/learning-loop.ts'
import { startTabLearning } from '../src/peer/peer/tab-learning.ts'

// The project's TypeScript lib is DOM, where `self` is a Window; this is the slice of a dedicated
// worker's global scope the worker uses.
interface WorkerScope {
  onmessage: ((event: MessageEvent<PeerWorkerCommand>) => void) | null
  postMessage(message: PeerWorkerEvent): void
  close(): void
}
const scope = self as unknown as WorkerScope

let running:
  | { bridge: BridgeClient; presence: PresenceService; learning?: Promise<LearningLoop | undefined> }
  | undefined

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
    const { learning } = command.config
    running = {
      bridge,
      presence,
      learning:
        learning &&
        startTabLearning({
          bridge,
          config: command.config,
          learning,
          swarmId: command.swarmId,
          peerId: command.self.peerId,
          nameOf: animalName,
          emit: post,
        }).catch((error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error)
          post({
            type: 'learning-error',
            message: `Learning could not start: ${reason}. Reload the page to retry.`,
            fatal: true,
          })
          return undefined
        }),
    }
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
  const { bridge, presence, learning } = running
  if (command.type === 'pause') {
    presence.pause()
    void learning?.then((loop) => loop?.pause())
  } else if (command.type === 'resume') {
    presence.resume()
    void learning?.then((loop) => loop?.resume())
  } else if (command.type === 'leave') {
    void learning?.then((loop) => loop?.stop())
    void presence.leave().then(() => {
      bridge.close()
      post({ type: 'left' })
      scope.close()
    })
  }
}
