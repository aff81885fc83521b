// Follows one of Delphi's networks while the Markets view shows it: on each new block (polled every
// 4 s, as any remote chain) the market list from Delphi's REST API, each market routed to its gateway
// (delphiDirectory), every market's state and the wallet's positions read on-chain with the same reads
// as the local feed, and the shown market's trades from the subgraph, with a warning when it trails
// the chain. Each failure becomes a titled sentence in the store: a refused key, a service that does
// not answer, a malformed answer, the wrong chain; the last good markets stay on screen.
import type { Address, PublicClient } from 'viem'
import { readCollateral, readEntrySnapshot } from '../chain/markets/directory-reads.ts'
import { errorSentence } from '../chain/error-sentence.ts'
import { collateralTokenAbi } from '../chain/generated/CollateralToken.ts'
import { dynamicParimutuelGatewayAbi } from '../chain/generated/DynamicParimutuelGateway.ts'
import type { TradeEvent } from '../chain/markets/market-events.ts'
import { readMarketPosition, readMarketStatics, type MarketStatics } from '../chain/markets/market-reads.ts'
import type { CollateralDeployment } from '../chain/deployment.ts'
import { REMOTE_POLLING_MS } from '../wallet/wallet-config.ts'
import { delphiDirectory } from '../delphi/delphi-directory.ts'
import {
  DelphiApiKeyError,
  DelphiOfflineError,
  DelphiResponseError,
  DelphiUnknownMarketError,
} from '../delphi/errors.ts'
import type { DelphiNetwork } from '../delphi/networks.ts'
import type { MarketHistory } from '../../core/markets/market-history.ts'
import type { MarketPosition, MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { TRADES_KEPT, marketsStore } from '../stores/markets-store.ts'
import { tradeHistoryStore } from '../stores/trade-history-store.ts'
import { walletStore } from '../stores/wallet-store.ts'
import { deploymentReadClient } from '../chain/deployment-client.ts'
import { parseMarketRoute } from './market-route.ts'
import { followMarkets, pokeMarketsFeed } from './markets-feed.ts'

/** Where the user fixes a refused or missing key, for the sentences that ask for one. */
export const DELPHI_KEY_HINT = 'enter your Delphi API key in Settings → Delphi'

export interface DelphiFeedOptions {
  network: DelphiNetwork
  /** null: none entered yet */
  apiKey: string | null
}

/** The RPC answers for another chain than the network's (a wrong RPC URL in the wallet settings). */
class WrongChainError extends Error {}

/** A failure of the feed as a short title and a sentence saying what to do. */
export function feedFailure(
  err: unknown,
  network: DelphiNetwork,
  token: CollateralDeployment | null,
): { errorTitle: string; error: string } {
  const where = `Delphi’s ${network.name}`
  if (err instanceof DelphiApiKeyError) return { errorTitle: 'API key refused', error: err.message }
  if (err instanceof DelphiOfflineError) return { errorTitle: `${where} is offline`, error: err.message }
  if (err instanceof DelphiResponseError || err instanceof DelphiUnknownMarketError)
    return { errorTitle: `${where} answered something unexpected`, error: err.message }
  if (err instanceof WrongChainError) return { errorTitle: 'Wrong network', error: err.message }
  return {
    errorTitle: `${where}’s chain cannot be read`,
    error: errorSentence(err, { rpcUrl: network.rpcUrl, token: token ?? undefined }),
  }
}

/** The subgraph's trades of one market as the trade events the views replay (chain order). */
export function historyTrades(market: Address, history: MarketHistory): TradeEvent[] {
  return history.entries.flatMap((e, i) =>
    e.kind === 'buy' || e.kind === 'sell'
      ? [
          {
            market,
            side: e.kind,
            trader: e.trader,
            outcome: e.outcome,
            shares: e.shares,
            tokens: e.tokens,
            blockNumber: e.blockNumber,
            // the subgraph rows carry no log index; their position keeps chain order within a block
            logIndex: i,
            hash: e.hash,
          },
        ]
      : [],
  )
}

/** The wallet whose positions are read: the connected one, on whatever chain (addresses are the same). */
function connectedOwner(): Address | null {
  const w = walletStore.getState()
  return w.status === 'connected' ? w.address : null
}

/** Starts following `network`'s markets; returns the stop function. */
export function startDelphiFeed({ network, apiKey }: DelphiFeedOptions): () => void {
  const set = marketsStore.setState
  if (!apiKey) {
    set({
      errorTitle: 'No API key',
      error: `Delphi’s ${network.name} lists its markets only for an API key: ${DELPHI_KEY_HINT}.`,
    })
    return () => {}
  }
  const client: PublicClient = deploymentReadClient(network.rpcUrl)
  const directory = delphiDirectory({ client, network, apiKey, keyHint: DELPHI_KEY_HINT })
  const statics = new Map<string, MarketStatics>()
  let token: CollateralDeployment | null = null
  let readOwner: Address | null = null
  let stopped = false

  /** One market's history; a failing subgraph is a warning, not a failed read. */
  async function history(m: MarketSnapshot, head: bigint) {
    const key = m.address.toLowerCase()
    try {
      const h = await directory.history(m, head)
      return { key, trades: historyTrades(m.address, h), through: h.indexedBlock, warning: h.warning }
    } catch (err) {
      return { key, trades: null, through: null, warning: feedFailure(err, network, token).error }
    }
  }

  async function onBlock(blockNumber: bigint): Promise<void> {
    if (!token) {
      const chainId = await client.getChainId()
      if (chainId !== network.chainId)
        throw new WrongChainError(
          `${network.rpcUrl} is chain ${chainId}, but Delphi’s ${network.name} is chain ${network.chainId}: set its RPC URL in Wallet → Wallet settings.`,
        )
      // The collateral is what the network's gateways take (their TOKEN()): approvals and balances
      // must be in it, whatever the network defaults say.
      const gateway = network.gateways[0]!.gateway
      token = await readCollateral(
        client,
        await client.readContract({
          address: gateway,
          abi: dynamicParimutuelGatewayAbi,
          functionName: 'TOKEN',
        }),
      )
    }
    const collateral = token
    const owner = connectedOwner()
    const entries = await directory.list(blockNumber)
    await Promise.all(
      entries
        .filter((e) => !statics.has(e.ref.address))
        .map(async (e) => statics.set(e.ref.address, await readMarketStatics(client, e.ref))),
    )
    const options = { blockNumber, tokenDecimals: collateral.decimals }
    const [snapshots, positions, balance] = await Promise.all([
      Promise.all(entries.map((e) => readEntrySnapshot(client, e, statics.get(e.ref.address)!, options))),
      owner
        ? Promise.all(
            entries.map((e) =>
              readMarketPosition(
                client,
                { ...e.ref, ...statics.get(e.ref.address)! },
                owner,
                collateral.address,
                blockNumber,
              ),
            ),
          )
        : [],
      owner
        ? client.readContract({
            address: collateral.address,
            abi: collateralTokenAbi,
            functionName: 'balanceOf',
            args: [owner],
            blockNumber,
          })
        : null,
    ])
    const byMarket: Record<string, MarketPosition> = {}
    positions.forEach((p, i) => (byMarket[entries[i]!.ref.address.toLowerCase()] = p))
    // The subgraph is asked only about the market on screen and those the wallet holds (the portfolio's
    // cost basis), not about every market of the network on every block.
    const shown = parseMarketRoute(location.hash)
    const held = (m: MarketSnapshot) => byMarket[m.address.toLowerCase()]?.shares.some((x) => x > 0n)
    const histories = await Promise.all(
      snapshots.filter((m) => m.address === shown || held(m)).map((m) => history(m, blockNumber)),
    )
    if (stopped) return
    readOwner = owner
    const read = histories.filter((h) => h.trades !== null)
    const trades = Object.fromEntries(read.map((h) => [h.key, h.trades!]))
    set((s) => ({
      phase: 'ready',
      error: null,
      errorTitle: null,
      token: collateral,
      historyWarning: histories.find((h) => h.key === shown?.toLowerCase())?.warning ?? null,
      markets: snapshots,
      settlements: Object.fromEntries(
        entries.flatMap((e) => (e.settlement ? [[e.ref.address.toLowerCase(), e.settlement]] : [])),
      ),
      positions: byMarket,
      owner,
      collateralBalance: balance,
      trades: {
        ...s.trades,
        ...Object.fromEntries(read.map((h) => [h.key, h.trades!.slice(-TRADES_KEPT)])),
      },
      blockNumber,
      updatedAt: Date.now(),
    }))
    if (read.length > 0)
      tradeHistoryStore.setState((h) => ({
        trades: { ...h.trades, ...trades },
        // the chart is behind the chain until every history read has caught up
        throughBlock: read.reduce((min, r) => (r.through! < min ? r.through! : min), blockNumber),
      }))
  }

  const stop = followMarkets({
    client,
    chainId: network.chainId,
    intervalMs: REMOTE_POLLING_MS,
    onBlock,
    onError: (err) => set(feedFailure(err, network, token)),
    ownerChanged: () => connectedOwner() !== readOwner,
  })
  // a market opened: read its history now rather than at the next block
  const onRoute = () => pokeMarketsFeed()
  window.addEventListener('hashchange', onRoute)
  return () => {
    stopped = true
    window.removeEventListener('hashchange', onRoute)
    stop()
  }
}
