// Ties the reward queue (submission-queue.ts) to the tab's wallet: rounds are queued at once (training
// never waits on the chain), kept in IndexedDB so a reload keeps them, sent one after another through
// the app's transaction path (submit-round.ts) whenever the wallet is connected to the coordinator's
// chain, retried on a timer, and right away when the wallet sees the chain answer again or the peer's
// registration appear. Every change is written to the learning store (`submissions`), and a sentence
// goes to its `message` while rounds wait for something the user should know of.
import { createPublicClient, http, type Address, type PublicClient } from 'viem'
import { learningStore } from '../stores/learning-store.ts'
import { walletStore, type WalletState } from '../stores/wallet-store.ts'
import { submitRound, type SwarmSend } from './submit-round.ts'
import {
  EMPTY_QUEUE,
  chainAnswered,
  dueEntries,
  enqueue,
  markSending,
  nextWakeAt,
  pruneSettled,
  queueMessage,
  registrationSeen,
  settle,
  toSubmissions,
  waitsForRegistration,
  withStored,
  type QueueEntry,
  type SubmissionInput,
  type SubmissionQueue,
} from './submission-queue.ts'
import { openSubmissionStore, submissionScope, type SubmissionStore } from './submission-store.ts'

/** How long one chain read may take before the RPC counts as not answering. */
const READ_TIMEOUT_MS = 10_000

export interface RewardSubmitterDeps {
  /** this tab's peer id: the claim the rewards go to */
  peerId: string
  /** the app's wallet send: `(call, options) => getWalletControls().send(call, options)` */
  send: SwarmSend
  /** where the queue is kept across reloads; default the browser's IndexedDB; null: this page only */
  indexedDB?: IDBFactory | null
  /** ms since the epoch; default Date.now */
  now?: () => number
}

export interface RewardSubmitter {
  /**
   * Queues a round (a round already queued is ignored); returns at once, never waits on the chain.
   * Throws on input the contract would refuse (submission-queue.ts enqueue).
   */
  enqueue(entry: SubmissionInput): void
  /** stops sending; resolves once a send in flight has settled and the queue is saved */
  stop(): Promise<void>
}

/** The wallet as the queue needs it. */
interface WalletView {
  /** set when a round can be sent now */
  target: { coordinator: Address; address: Address; rpcUrl: string } | null
  /** why nothing can be sent (the end of a sentence); null when it can, or when there is no chain */
  blocker: string | null
  registered: boolean | null
}

function walletView(s: WalletState): WalletView {
  const d = s.deployment
  if (!d) return { target: null, blocker: null, registered: null }
  if (s.status !== 'connected' || !s.address || !s.rpcUrl)
    return {
      target: null,
      blocker: 'no wallet is connected; connect one in the Wallet view.',
      registered: null,
    }
  if (s.chainId !== d.chainId)
    return {
      target: null,
      blocker: `the wallet is on another network; switch it to the swarm’s chain (id ${d.chainId}) in the Wallet view.`,
      registered: null,
    }
  const mine = s.address.toLowerCase()
  return {
    target: { coordinator: d.coordinator, address: s.address, rpcUrl: s.rpcUrl },
    blocker: null,
    registered: s.peerClaims ? s.peerClaims.some((c) => c.wallet.toLowerCase() === mine) : null,
  }
}

export function createRewardSubmitter(deps: RewardSubmitterDeps): RewardSubmitter {
  const now = deps.now ?? Date.now
  const factory = deps.indexedDB === undefined ? globalThis.indexedDB : deps.indexedDB
  let queue: SubmissionQueue = EMPTY_QUEUE
  let store: SubmissionStore | null = null
  /** the stored queue has been read (or there is none to read): sending may start */
  let loaded = false
  let loading = false
  let saving: Promise<void> = Promise.resolve()
  let flushing: Promise<void> | null = null
  let again = false
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastMessage: string | null = null
  let published: SubmissionQueue | null = null
  let reader: { rpcUrl: string; client: PublicClient } | null = null

  /** Reads go to the RPC the wallet uses; a new URL (settings) gets a new client. */
  const clientFor = (rpcUrl: string): PublicClient => {
    if (reader?.rpcUrl !== rpcUrl)
      reader = {
        rpcUrl,
        client: createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: READ_TIMEOUT_MS }) }),
      }
    return reader.client
  }

  /** Writes the learning store when the queue or the message changed (the wallet store ticks each block). */
  function publish(): void {
    const view = walletView(walletStore.getState())
    const text = queueMessage(queue, { rpcUrl: view.target?.rpcUrl ?? null, ...view })
    const { message: current, rewardsWaitForRegistration: waiting } = learningStore.getState()
    // The message is shared with the round loop: replace only our own sentence, or none.
    const message = text !== current && (current === null || current === lastMessage) ? text : current
    lastMessage = text
    const waits = waitsForRegistration(queue, view)
    if (queue === published && message === current && waits === waiting) return
    if (queue !== published) learningStore.setState({ submissions: toSubmissions(queue) })
    published = queue
    if (message !== current) learningStore.setState({ message })
    if (waits !== waiting) learningStore.setState({ rewardsWaitForRegistration: waits })
  }

  /** Queues a write; writes run in order, and a failed one leaves the queue in memory only. */
  function persist(target: SubmissionStore, put: readonly QueueEntry[], remove: readonly number[]): void {
    saving = saving
      .then(() => target.save(put, remove))
      .catch((err: unknown) => console.warn('tabswarm: could not save the reward queue', err))
  }

  function change(next: SubmissionQueue): void {
    const pruned = pruneSettled(next)
    const before = new Set<QueueEntry>(queue.entries)
    queue = pruned.queue
    const put = queue.entries.filter((e) => !before.has(e))
    if (store && (put.length > 0 || pruned.dropped.length > 0)) persist(store, put, pruned.dropped)
    publish()
  }

  async function load(scope: string): Promise<void> {
    loading = true
    try {
      if (factory) {
        const opened = await openSubmissionStore(factory, scope)
        const stored = await opened.load()
        if (stopped) return opened.close()
        store = opened
        // everything enqueued before the read goes to storage too
        queue = withStored(queue, stored)
        persist(opened, queue.entries, [])
      }
    } catch (err) {
      console.warn('tabswarm: the reward queue is kept in this page only', err)
      store = null
    } finally {
      loaded = true
      if (!stopped) {
        publish()
        void flush()
      }
    }
  }

  function schedule(): void {
    if (timer) clearTimeout(timer)
    timer = undefined
    if (stopped || !loaded) return
    const view = walletView(walletStore.getState())
    if (!view.target) return // the wallet store says when it is ready
    const wake = nextWakeAt(queue, view.registered)
    if (wake !== undefined) timer = setTimeout(() => void flush(), Math.max(0, wake - now()))
  }

  async function drain(): Promise<void> {
    const tried = new Set<number>() // each round at most once per pass
    for (;;) {
      if (stopped) return
      const view = walletView(walletStore.getState())
      if (!view.target) return
      const next = dueEntries(queue, now(), view.registered).find((e) => !tried.has(e.round))
      if (!next) return
      tried.add(next.round)
      change(markSending(queue, next.round))
      const { coordinator, address, rpcUrl } = view.target
      const outcome = await submitRound(
        {
          client: clientFor(rpcUrl),
          send: deps.send,
          coordinator,
          peerId: deps.peerId,
          wallet: address,
          errorContext: { rpcUrl },
        },
        next,
      )
      change(settle(queue, next.round, outcome, now()))
      if (outcome.kind === 'transient') return // the chain or the wallet is down for every round
    }
  }

  function flush(): Promise<void> {
    if (!loaded || stopped) return Promise.resolve()
    if (flushing) {
      again = true
      return flushing
    }
    flushing = (async () => {
      do {
        again = false
        await drain()
      } while (again && !stopped)
    })().finally(() => {
      flushing = null
      schedule()
    })
    return flushing
  }

  let seen = walletStore.getState()
  function onWallet(s: WalletState): void {
    const before = walletView(seen)
    const view = walletView(s)
    const blockMoved = s.blockNumber !== seen.blockNumber && s.blockNumber !== null
    seen = s
    if (!loaded && !loading && s.deployment)
      void load(submissionScope(s.deployment.chainId, s.deployment.coordinator, deps.peerId))
    if (!loaded) return
    let next = queue
    if (view.registered === true && before.registered !== true) next = registrationSeen(next)
    if (blockMoved) next = chainAnswered(next)
    const changed = next !== queue
    if (changed) change(next)
    else publish() // the blocker or the registration may have changed the message
    if (view.target && (changed || !before.target || view.registered !== before.registered)) void flush()
    else if (!flushing) schedule()
  }
  const unsubscribe = walletStore.subscribe(onWallet)
  publish()
  onWallet(seen)

  return {
    enqueue(entry) {
      const next = enqueue(queue, entry)
      if (stopped || next === queue) return
      change(next)
      void flush()
    },
    async stop() {
      stopped = true
      unsubscribe()
      if (timer) clearTimeout(timer)
      await flushing
      await saving
      store?.close()
    },
  }
}
