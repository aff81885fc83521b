// The seam between the market commands and a market network: what a command asks of a backend, in
// market terms (snapshots, positions, quotes, history, transactions), so the local chain and Delphi's
// networks (REST + gateways + subgraph) serve the same commands. The commands do the checks; a backend
// does IO.
import type { Address, Hex } from 'viem'
import type { MarketHistory } from '../../../core/markets/market-history.ts'
import type { MarketPosition, MarketSnapshot } from '../../../core/markets/market-snapshot.ts'
import type { MarketSettlement } from '../../../core/markets/settlement-proof.ts'
import type { TradeSide } from '../../../core/markets/trade-quote.ts'
import type { Token } from './amounts.ts'

/** A mined, successful transaction. */
export interface SentTx {
  hash: Hex
  blockNumber: bigint
}

/** The gateway's own answer to a quote: the tokens, or the custom error it reverts with. */
export type GatewayQuote =
  { ok: true; tokens: bigint } | { ok: false; errorName: string; args: readonly unknown[]; sentence: string }

/** A market as a backend reads it: Delphi's networks add what their API says of its settlement. */
export type BackendMarket = MarketSnapshot & { readonly settlement?: MarketSettlement }

export interface MarketBackend {
  /** e.g. "local" */
  readonly network: string
  readonly chainId: number
  readonly token: Token & { address: Address }
  /** the signing account (from TABSWARM_PRIVATE_KEY), null when none is set: reads only */
  readonly account: Address | null

  /** every market, read at one block */
  listMarkets(): Promise<BackendMarket[]>
  /** one market by address or `dpm:<n>` / `lmsr:<n>`; unknown → CommandError `unknown-market` */
  market(ref: string): Promise<BackendMarket>
  /** the markets where `owner` holds shares, when the network indexes positions (Delphi's REST API) */
  marketsHeldBy?(owner: Address): Promise<BackendMarket[]>
  /** trades, exits and settlement of one market, in chain order */
  history(m: MarketSnapshot): Promise<MarketHistory>
  gatewayQuote(m: MarketSnapshot, side: TradeSide, outcome: number, shares: bigint): Promise<GatewayQuote>
  position(m: MarketSnapshot, owner: Address): Promise<MarketPosition>
  collateralBalance(owner: Address): Promise<bigint>

  /** the write actions: simulated first (a revert is a CommandError before anything is signed) */
  /** test collateral from the token's faucet (local and test networks) */
  faucet(): Promise<SentTx & { received: bigint }>
  approve(m: MarketSnapshot, amount: bigint): Promise<SentTx>
  buy(
    m: MarketSnapshot,
    outcome: number,
    shares: bigint,
    maxTokensIn: bigint,
  ): Promise<SentTx & { tokensIn: bigint }>
  sell(
    m: MarketSnapshot,
    outcome: number,
    shares: bigint,
    minTokensOut: bigint,
  ): Promise<SentTx & { tokensOut: bigint }>
  redeem(m: MarketSnapshot): Promise<SentTx & { sharesIn: bigint; tokensOut: bigint }>
  liquidate(
    m: MarketSnapshot,
    outcomes: readonly number[],
  ): Promise<SentTx & { sharesIn: bigint[]; totalTokensOut: bigint }>
}
