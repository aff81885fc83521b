// Sends a quoted trade through the wallet (simulate → burner confirmation → sign → receipt): first an
// approval of the market proxy sized to maxTokensIn when the allowance is short, then buyExactOut /
// sellExactIn with the quote's slippage bound. Every failure comes back as the wallet's sentence.
import type { ContractTxResult } from '../chain/contract-tx.ts'
import type { CollateralDeployment } from '../chain/deployment.ts'
import { approveMarketCall, buyExactOutCall, sellExactInCall } from '../chain/markets/market-calls.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import type { TxState } from '../chain/tx-state.ts'
import { outcomeLabel, marketTitle, type MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { formatShares } from '../../core/markets/share-amount.ts'
import { UNLIMITED_ALLOWANCE, approvalNeeded } from '../../core/markets/trade-checks.ts'
import type { TradeQuote } from '../../core/markets/trade-quote.ts'
import { collateralTokenAbi } from '../chain/generated/CollateralToken.ts'
import { walletStore } from '../stores/wallet-store.ts'
import { getWalletControls } from '../wallet/wallet-controls.ts'
import { marketsFeedChainId, marketsFeedClient, pokeMarketsFeed } from './markets-feed.ts'

export interface RunTradeOptions {
  market: MarketSnapshot
  quote: TradeQuote
  slippageBps: number
  /** the allowance the panel shows; re-read from the chain before deciding on an approval */
  allowance: bigint
  /** approve 2^256 − 1 instead of exactly this buy's maximum cost */
  unlimitedApproval: boolean
  token: CollateralDeployment
  onApproval: (s: TxState) => void
  onTrade: (s: TxState) => void
}

/**
 * The allowance as the chain has it now. The panel's figure comes from the last poll, which may not show
 * this tab's previous buy yet: sized from it, a second quick buy skipped an approval it needed.
 */
async function currentAllowance(o: RunTradeOptions): Promise<bigint> {
  const client = marketsFeedClient()
  const owner = walletStore.getState().address
  if (!client || !owner) return o.allowance
  try {
    return await client.readContract({
      address: o.token.address,
      abi: collateralTokenAbi,
      functionName: 'allowance',
      args: [owner, o.market.address],
    })
  } catch {
    return o.allowance
  }
}

export async function runTrade(o: RunTradeOptions): Promise<ContractTxResult> {
  const controls = getWalletControls()
  if (!controls) {
    const error = 'The wallet has not started yet; try again in a moment.'
    o.onTrade({ phase: 'failed', error })
    return { ok: false, error }
  }
  const { market: m, quote: q, token } = o
  const amount = (v: bigint) =>
    formatTokenAmount(v, token.decimals, { maxFractionDigits: 6, symbol: token.symbol })
  const outcome = outcomeLabel(m, q.outcome)
  // the markets' chain, which may not be the wallet's (Delphi's networks): the wallet switches to it
  const chainId = marketsFeedChainId() ?? undefined
  const approve = approvalNeeded(q, await currentAllowance(o), o.unlimitedApproval)
  const approveText =
    approve === UNLIMITED_ALLOWANCE ? `any amount of ${token.symbol}` : amount(approve ?? 0n)
  if (approve !== null) {
    const approved = await controls.send(approveMarketCall(token.address, m.address, approve), {
      kind: 'trade',
      chainId,
      confirmation: {
        title: `Allow the market to take up to ${approveText}`,
        details: [
          { label: 'Market', value: marketTitle(m) },
          { label: 'Spender (market)', value: m.address },
          { label: 'Allowance', value: approveText },
        ],
        note:
          approve === UNLIMITED_ALLOWANCE
            ? 'The market proxy holds the collateral; with an unlimited allowance later buys on this market ask once.'
            : 'The market proxy holds the collateral; the allowance covers exactly this trade’s maximum cost.',
        confirmLabel: 'Approve',
      },
      onState: o.onApproval,
    })
    if (!approved.ok) {
      o.onTrade({ phase: 'failed', error: `No trade: the approval failed. ${approved.error}` })
      return approved
    }
  }
  const buy = q.side === 'buy'
  const call = buy
    ? buyExactOutCall(m, q.outcome, q.shares, q.bound)
    : sellExactInCall(m, q.outcome, q.shares, q.bound)
  const result = await controls.send(call, {
    kind: 'trade',
    chainId,
    confirmation: {
      title: `${buy ? 'Buy' : 'Sell'} ${formatShares(q.shares)} shares of “${outcome}”`,
      details: [
        { label: 'Market', value: marketTitle(m) },
        { label: buy ? 'Quoted cost' : 'Quoted proceeds', value: amount(q.tokens) },
        { label: buy ? 'Maximum cost' : 'Minimum proceeds', value: amount(q.bound) },
        { label: 'Slippage', value: `${o.slippageBps} bps` },
      ],
      note: buy
        ? 'If the price moves past the maximum cost before the trade lands, it reverts and nothing is spent.'
        : 'If the price moves below the minimum proceeds before the trade lands, it reverts and you keep your shares.',
      confirmLabel: buy ? 'Buy' : 'Sell',
    },
    onState: o.onTrade,
  })
  pokeMarketsFeed()
  return result
}
