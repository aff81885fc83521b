// The market events a client follows: trades (GatewayBuy / GatewaySell on every kind's gateway) and new
// markets (NewMarketProxy on every kind's factory), read incrementally by block range.
import { parseAbiItem, type Address, type Hex, type PublicClient } from 'viem'
import type { MarketKind } from '../../../core/markets/market-kinds.ts'
import type { MarketsDeployment } from '../deployment.ts'
import { CHAIN_KINDS, kindOfFactory } from './chain-kinds.ts'

const GATEWAY_BUY = parseAbiItem(
  'event GatewayBuy(address indexed marketProxy, address indexed buyer, uint256 indexed outcomeIdx, uint256 tokensIn, uint256 sharesOut)',
)
const GATEWAY_SELL = parseAbiItem(
  'event GatewaySell(address indexed marketProxy, address indexed seller, uint256 indexed outcomeIdx, uint256 sharesIn, uint256 tokensOut)',
)
const NEW_MARKET_PROXY = parseAbiItem(
  'event NewMarketProxy(address indexed marketProxy, address indexed creator, uint256 indexed index, uint256 initialDeposit)',
)

export interface TradeEvent {
  market: Address
  side: 'buy' | 'sell'
  trader: Address
  outcome: number
  /** wei-shares */
  shares: bigint
  /** base units: paid (buy) or received (sell) */
  tokens: bigint
  blockNumber: bigint
  logIndex: number
  hash: Hex
}

export interface MarketCreatedEvent {
  market: Address
  kind: MarketKind
  creator: Address
  blockNumber: bigint
}

export interface MarketEvents {
  trades: TradeEvent[]
  created: MarketCreatedEvent[]
}

/** Trades and creations in blocks [fromBlock, toBlock], in chain order. */
export async function readMarketEvents(
  client: PublicClient,
  markets: MarketsDeployment,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<MarketEvents> {
  if (fromBlock > toBlock) return { trades: [], created: [] }
  const logs = await client.getLogs({
    address: Object.values(CHAIN_KINDS).flatMap((k) => [k.gateway(markets), k.factory(markets)]),
    events: [GATEWAY_BUY, GATEWAY_SELL, NEW_MARKET_PROXY],
    fromBlock,
    toBlock,
    strict: true,
  })
  const trades: TradeEvent[] = []
  const created: MarketCreatedEvent[] = []
  for (const log of logs) {
    const at = { blockNumber: log.blockNumber, logIndex: log.logIndex, hash: log.transactionHash }
    if (log.eventName === 'GatewayBuy')
      trades.push({
        market: log.args.marketProxy,
        side: 'buy',
        trader: log.args.buyer,
        outcome: Number(log.args.outcomeIdx),
        shares: log.args.sharesOut,
        tokens: log.args.tokensIn,
        ...at,
      })
    else if (log.eventName === 'GatewaySell')
      trades.push({
        market: log.args.marketProxy,
        side: 'sell',
        trader: log.args.seller,
        outcome: Number(log.args.outcomeIdx),
        shares: log.args.sharesIn,
        tokens: log.args.tokensOut,
        ...at,
      })
    else {
      // a NewMarketProxy comes from a factory; the address says which kind it deploys
      const kind = kindOfFactory(markets, log.address)
      if (kind)
        created.push({
          market: log.args.marketProxy,
          kind,
          creator: log.args.creator,
          blockNumber: log.blockNumber,
        })
    }
  }
  return { trades, created }
}
