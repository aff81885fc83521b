// Follows the deployment's markets while the Markets view is open: on each new block (polled every
// 500 ms on the local chain) it lists the markets of both factories, reads every market's state and
// the connected wallet's positions at that block in one JSON-RPC batch, and picks up the trades and
// new markets since the last block. Two tabs see each other's trades within a poll or two.
import type { Address, PublicClient } from 'viem'
import { startBlockPoller, type BlockPoller } from '../chain/block-poller.ts'
import type { ChainDeployment } from '../chain/deployment.ts'
import { errorSentence } from '../chain/error-sentence.ts'
import { collateralTokenAbi } from '../chain/generated/CollateralToken.ts'
import { readMarketEvents } from '../chain/markets/market-events.ts'
import {
  listMarkets,
  readMarketPosition,
  readMarketSnapshot,
  readMarketStatics,
  type MarketStatics,
} from '../chain/markets/market-reads.ts'
import { LOCAL_POLLING_MS, REMOTE_POLLING_MS } from '../wallet/wallet-config.ts'
import type { MarketPosition } from '../../core/markets/market-snapshot.ts'
import { mergeTrades, marketsStore } from '../stores/markets-store.ts'
import { appendTradeHistory, tradeHistoryStore } from '../stores/trade-history-store.ts'
import { walletStore } from '../stores/wallet-store.ts'
import { deploymentReadClient, deploymentRpcUrl, isLocalDeployment } from '../chain/deployment-client.ts'

let poller: BlockPoller | null = null
let feedClient: PublicClient | null = null
let feedChainId: number | null = null

/** The client the feed reads the chain with (null while no feed runs), for a view's extra reads. */
export function marketsFeedClient(): PublicClient | null {
  return feedClient
}

/** The chain of the markets followed (null while no feed runs): trades are sent there. */
export function marketsFeedChainId(): number | null {
  return feedChainId
}

/** Reads again now (after this tab traded). */
export function pokeMarketsFeed(): void {
  poller?.poke()
}

/** The wallet whose positions are read: the connected one, when it is on the deployment's chain. */
function ownerOn(deployment: ChainDeployment): Address | null {
  const w = walletStore.getState()
  return w.status === 'connected' && w.chainId === deployment.chainId ? w.address : null
}

/** Starts following the markets of `deployment`; returns the stop function. */
export function startMarketsFeed(deployment: ChainDeployment | null): () => void {
  const set = marketsStore.setState
  const markets = deployment?.markets
  const collateral = deployment?.collateral
  if (!deployment || !markets || !collateral) {
    set({ phase: deployment ? 'unavailable' : 'loading' })
    return () => {}
  }
  const rpcUrl = deploymentRpcUrl(deployment)
  const client = deploymentReadClient(rpcUrl)
  const statics = new Map<string, MarketStatics>()
  const createdBlocks = new Map<string, bigint>()
  let eventsFrom = BigInt(deployment.deployedAtBlock)
  // the history is read again from the deployment block: start it empty
  tradeHistoryStore.setState({ trades: {}, throughBlock: null })
  let readOwner: Address | null = null

  async function onBlock(blockNumber: bigint): Promise<void> {
    const owner = ownerOn(deployment!)
    const [refs, events] = await Promise.all([
      listMarkets(client, markets!, blockNumber),
      readMarketEvents(client, markets!, eventsFrom, blockNumber),
    ])
    for (const c of events.created) createdBlocks.set(c.market.toLowerCase(), c.blockNumber)
    await Promise.all(
      refs
        .filter((r) => !statics.has(r.address))
        .map(async (r) => statics.set(r.address, await readMarketStatics(client, r))),
    )
    const full = refs.map((r) => ({ ...r, ...statics.get(r.address)! }))
    const options = { blockNumber, tokenDecimals: collateral!.decimals, createdBlocks }
    const [snapshots, positions, balance] = await Promise.all([
      Promise.all(full.map((r) => readMarketSnapshot(client, r, options))),
      owner
        ? Promise.all(full.map((r) => readMarketPosition(client, r, owner, collateral!.address, blockNumber)))
        : [],
      owner
        ? client.readContract({
            address: collateral!.address,
            abi: collateralTokenAbi,
            functionName: 'balanceOf',
            args: [owner],
            blockNumber,
          })
        : null,
    ])
    if (stopped) return
    const byMarket: Record<string, MarketPosition> = {}
    positions.forEach((p, i) => (byMarket[full[i]!.address.toLowerCase()] = p))
    eventsFrom = blockNumber + 1n
    readOwner = owner
    set((s) => ({
      phase: 'ready',
      error: null,
      markets: snapshots,
      positions: byMarket,
      owner,
      collateralBalance: balance,
      trades: mergeTrades(s.trades, events.trades),
      blockNumber,
      updatedAt: Date.now(),
    }))
    tradeHistoryStore.setState((h) => ({
      trades: appendTradeHistory(h.trades, events.trades),
      throughBlock: blockNumber,
    }))
  }

  const local = isLocalDeployment(deployment)
  let stopped = false
  const stop = followMarkets({
    client,
    chainId: deployment.chainId,
    intervalMs: local ? LOCAL_POLLING_MS : REMOTE_POLLING_MS,
    onBlock,
    onError: (err) => set({ error: errorSentence(err, { rpcUrl, token: collateral }) }),
    ownerChanged: () => ownerOn(deployment) !== readOwner,
  })
  return () => {
    stopped = true
    stop()
  }
}

export interface FollowMarketsOptions {
  client: PublicClient
  chainId: number
  intervalMs: number
  onBlock: (blockNumber: bigint) => Promise<void>
  onError: (err: unknown) => void
  /** whether the wallet whose positions are read is no longer the one read last */
  ownerChanged: () => boolean
}

/**
 * Polls the chain as THE markets feed (the one trades, exits and extra reads go through) and reads
 * again when the wallet changes; returns the stop function. The local feed and Delphi's
 * (delphi-feed.ts) differ only in what they read on each block.
 */
export function followMarkets(o: FollowMarketsOptions): () => void {
  poller?.stop()
  const mine = startBlockPoller({
    blockNumber: () => o.client.getBlockNumber({ cacheTime: 0 }),
    intervalMs: () => o.intervalMs,
    onBlock: o.onBlock,
    onError: o.onError,
  })
  poller = mine
  feedClient = o.client
  feedChainId = o.chainId
  // A wallet that connects, disconnects or switches chains: read its positions now.
  const unsubscribe = walletStore.subscribe((w, prev) => {
    if (w.address !== prev.address || w.chainId !== prev.chainId || w.status !== prev.status)
      if (o.ownerChanged()) mine.poke()
  })
  return () => {
    unsubscribe()
    mine.stop()
    if (poller === mine) {
      poller = null
      feedClient = null
      feedChainId = null
    }
  }
}
