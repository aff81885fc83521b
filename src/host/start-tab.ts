// Turns the page into a swarm peer: loads the swarm config, claims this tab's identity, starts the
// libp2p node and the peer worker, feeds the stores, and provides the UI's controls.
import { loadSwarmConfig, configUrlFrom } from './load-swarm-config.ts'
import { claimIdentity, type TabIdentity } from './identity/key-store.ts'
import { animalName } from '../core/identity/animal.ts'
import { exportBackup } from './identity/backup.ts'
import { importIdentity } from './identity/import-identity.ts'
import { startNetwork, type Network } from './net/start-network.ts'
import { STATS_SAMPLE_MS } from './net/constants.ts'
import { createGossipValidator } from '../core/protocol/gossip-validator.ts'
import { detectCapabilities } from './capabilities.ts'
import { makePresenceBody, type Capabilities, type PresenceBody } from '../core/protocol/presence.ts'
import type { ReceiptsBody } from '../core/protocol/receipts-message.ts'
import { encodeEnvelope, PROTOCOL_VERSION } from '../core/protocol/envelope.ts'
import { topicFor } from '../core/protocol/topics.ts'
import { type SwarmConfig } from '../core/config/swarm-config.ts'
import { roundAt } from '../core/learning/round-clock.ts'
import { netStore, emptyStats } from './stores/net-store.ts'
import { swarmStore } from './stores/swarm-store.ts'
import type {
  PeerWorkerCommand,
  PeerWorkerEvent,
  PeerWorkerInit,
} from '../core/protocol/peer-worker-messages.ts'
import { settingsStore } from './stores/settings-store.ts'
import { setAppControls } from './controls.ts'
import { exposeDebugHandle } from './debug-handle.ts'
import { downloadFile } from './download-file.ts'
import { APP_VERSION } from './version.ts'
import { startWallet } from './wallet/start-wallet.ts'
import {
  adoptLearningClock,
  applyLearningEvent,
  deploymentClockSource,
  isLearningEvent,
  learningClock,
  resetLearning,
} from './start-learning.ts'
import { startRewardSubmissions, type RewardSubmissions } from './start-rewards.ts'
import { recordReceipt } from './verify/record-receipt.ts'
import { walletStore } from './stores/wallet-store.ts'

interface Session {
  network: Network
  worker: Worker
  sampler: ReturnType<typeof setInterval>
  /** the rounds' rewards on their way to the coordinator; absent when the swarm does not learn */
  rewards: RewardSubmissions | undefined
  /** settles when the worker has sent its leaving presence */
  left: Promise<void>
}

/** How long leaving waits for the worker's goodbye before stopping the node anyway. */
const LEAVE_TIMEOUT_MS = 2_000

export async function startTab(): Promise<void> {
  // Asking for a WebGPU adapter can take a while (SwiftShader: hundreds of ms); it runs alongside the
  // rest of the start and is only awaited when the peer worker needs it.
  const detecting = detectCapabilities()
  const configUrl = configUrlFrom(location.search)
  settingsStore.setState({ configUrl })
  let loaded: Awaited<ReturnType<typeof loadSwarmConfig>>
  let identity: TabIdentity
  try {
    const claiming = claimIdentity()
    loaded = await loadSwarmConfig(configUrl)
    settingsStore.setState({ config: loaded.config, swarmId: loaded.swarmId })
    identity = await claiming
  } catch (err) {
    const message = (err as Error).message
    settingsStore.setState({ configError: message })
    netStore.setState({ status: 'error', error: message })
    void refreshStorage(navigator.storage?.persisted?.().catch(() => false) ?? false)
    return
  }
  const { config, swarmId } = loaded
  swarmStore.setState({ self: { peerId: identity.peerId, name: identity.name } })
  // The wallet runs beside the swarm: a chain that is down or slow never holds the network up.
  startWallet({ privateKey: identity.privateKey, peerId: identity.peerId }).catch((err: unknown) =>
    walletStore.setState({ error: `The wallet could not start: ${(err as Error).message}` }),
  )
  void refreshStorage(identity.persisted)
  let capabilities: Capabilities | null = null

  let session: Session | null = null
  const boot = async (): Promise<void> => {
    netStore.setState({
      status: 'starting',
      relay: 'connecting',
      error: null,
      stats: emptyStats(),
      history: [],
    })
    try {
      session = await startSession(config, swarmId, identity, detecting)
      capabilities = await detecting
      exposeDebugHandle(location.search, { network: session.network })
      netStore.setState({ status: 'online' })
    } catch (err) {
      netStore.setState({
        status: 'error',
        error: `could not start the network: ${(err as Error).message}`,
      })
    }
  }
  const shutdown = async (): Promise<void> => {
    const s = session
    session = null
    exposeDebugHandle(location.search, undefined)
    if (!s) return
    clearInterval(s.sampler)
    s.worker.postMessage({ type: 'leave' } satisfies PeerWorkerCommand)
    await Promise.race([s.left, new Promise((r) => setTimeout(r, LEAVE_TIMEOUT_MS))])
    s.worker.terminate()
    await Promise.all([s.network.stop(), s.rewards?.stop()])
  }

  // Tell the others at once that this tab is going, so they hang up instead of waiting ~10 s for the
  // WebRTC consent timeout.
  addEventListener('pagehide', () => {
    if (session && capabilities) void publishLeave(session.network, config, swarmId, identity, capabilities)
  })

  setAppControls({
    async exportIdentity() {
      downloadFile(`tabswarm-${identity.name.replaceAll(' ', '-')}.json`, exportBackup(identity) as BlobPart)
    },
    async importIdentity(file) {
      const bytes = new Uint8Array(await file.arrayBuffer())
      await importIdentity(identity.slot, bytes, { fileName: file.name })
      // The node runs with the old key; a reload starts it with the imported one.
      location.reload()
    },
    pause() {
      session?.worker.postMessage({ type: 'pause' } satisfies PeerWorkerCommand)
      settingsStore.setState({ participation: 'paused' })
      netStore.setState({ status: 'paused' })
    },
    resume() {
      session?.worker.postMessage({ type: 'resume' } satisfies PeerWorkerCommand)
      settingsStore.setState({ participation: 'active' })
      netStore.setState({ status: 'online' })
    },
    async leave() {
      await shutdown()
      settingsStore.setState({ participation: 'left' })
      netStore.setState({ status: 'stopped', topology: null })
      swarmStore.setState({ peers: {} })
    },
    async rejoin() {
      settingsStore.setState({ participation: 'active' })
      await boot()
    },
  })
  await boot()
}

async function startSession(
  config: SwarmConfig,
  swarmId: string,
  identity: TabIdentity,
  detecting: Promise<Capabilities>,
): Promise<Session> {
  // read while the network starts; the worker runs on the coordinator's round clock when there is one
  const clocked = config.learning
    ? deploymentClockSource().then((source) => learningClock(config, source))
    : Promise.resolve({ config, clockNote: null })
  const validator = createGossipValidator({
    swarmId,
    now: Date.now,
    nameOf: animalName,
    groupSize: config.learning?.groupSize,
  })
  let network: Network | null = null
  network = await startNetwork({
    privateKey: identity.privateKey,
    config,
    swarmId,
    check: (topic, data, signer, source) => validator.validate(topic, data, signer, source),
    onRelayState: (relay) => netStore.setState({ relay }),
    onEnvelope: (envelope, from) => {
      if (envelope.kind === 'presence' && (envelope.body as PresenceBody).leaving) void network?.hangUp(from)
      if (envelope.kind === 'receipts') {
        const { receipt, inputs } = envelope.body as ReceiptsBody
        void recordReceipt(receipt, { round: envelope.round, ours: false, inputs })
      }
    },
  })
  const worker = new Worker(new URL('../../workers/peer.worker.ts', import.meta.url), { type: 'module' })
  resetLearning(config.learning !== undefined)
  const rewards = config.learning ? startRewardSubmissions(identity.peerId) : undefined
  const left = new Promise<void>((resolve) => {
    worker.onmessage = (e: MessageEvent<PeerWorkerEvent>) => {
      const msg = e.data
      if (isLearningEvent(msg)) {
        applyLearningEvent(msg)
        rewards?.onEvent(msg)
        if (msg.type === 'learning-receipt')
          void recordReceipt(msg.receipt, { round: msg.round, ours: true, inputs: msg.inputs })
        return
      }
      if (msg.type === 'state') swarmStore.setState(msg.state)
      else if (msg.type === 'error') netStore.setState({ error: msg.message })
      else resolve()
    }
  })
  const channel = new MessageChannel()
  const host = network.attachWorker(channel.port1)
  const init: PeerWorkerInit = {
    type: 'init',
    port: channel.port2,
    config: adoptLearningClock(await clocked),
    swarmId,
    self: { peerId: identity.peerId, name: identity.name },
    appVersion: APP_VERSION,
    capabilities: await detecting,
  }
  worker.postMessage(init, [channel.port2])
  const net = network
  const sampler = setInterval(() => {
    net.stats.setQueueDepth(host.queueDepth())
    void net.topology().then((topology) => {
      const { stats, history } = net.stats.sample(Date.now())
      netStore.setState({ topology, relay: topology.relay, stats, history })
    })
  }, STATS_SAMPLE_MS)
  return { network: net, worker, sampler, rewards, left }
}

/** Publishes a signed 'leaving' presence from the main thread: at pagehide the worker may not get to run. */
async function publishLeave(
  network: Network,
  config: SwarmConfig,
  swarmId: string,
  identity: TabIdentity,
  capabilities: Capabilities,
): Promise<void> {
  const now = Date.now()
  const body = makePresenceBody({ name: identity.name, appVersion: APP_VERSION, capabilities, leaving: true })
  const data = encodeEnvelope({
    v: PROTOCOL_VERSION,
    swarmId,
    round: roundAt(config, now),
    from: identity.peerId,
    ts: now,
    kind: 'presence',
    body,
  })
  await network.node.services.pubsub.publish(topicFor(swarmId, 'presence'), data).catch(() => {})
}

async function refreshStorage(persisted: boolean | Promise<boolean>): Promise<void> {
  const estimate = await navigator.storage?.estimate?.().catch(() => null)
  settingsStore.setState({
    storage: { usage: estimate?.usage ?? 0, quota: estimate?.quota ?? 0, persisted: await persisted },
  })
}
