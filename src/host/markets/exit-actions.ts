// Leaves an ended market through the wallet (simulate → burner confirmation → sign → receipt):
// `redeem` on a settled market, `liquidate` of every held outcome on an expired or failed one. The
// confirmation shows the exact payout the maths computed; what was received is read back from the
// gateway's event in the receipt. Every failure comes back as the wallet's sentence.
import { parseEventLogs } from 'viem'
import type { CollateralDeployment } from '../chain/deployment.ts'
import { dynamicParimutuelGatewayAbi } from '../chain/generated/DynamicParimutuelGateway.ts'
import { liquidateCall, redeemCall } from '../chain/markets/market-calls.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import type { TxState } from '../chain/tx-state.ts'
import type { ExitQuote } from '../../core/markets/exit-value.ts'
import { marketTitle, outcomeLabel, type MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { formatShares } from '../../core/markets/share-amount.ts'
import { getWalletControls } from '../wallet/wallet-controls.ts'
import { marketsFeedChainId, pokeMarketsFeed } from './markets-feed.ts'

export type ExitResult = { ok: true; received: bigint } | { ok: false; error: string }

export interface RunExitOptions {
  market: MarketSnapshot
  quote: ExitQuote & { ok: true }
  token: CollateralDeployment
  onState: (s: TxState) => void
}

/** Both gateways emit the same exit events; the DPM ABI decodes either. */
const EXIT_EVENTS = dynamicParimutuelGatewayAbi

export async function runExit(o: RunExitOptions): Promise<ExitResult> {
  const controls = getWalletControls()
  if (!controls) {
    const error = 'The wallet has not started yet; try again in a moment.'
    o.onState({ phase: 'failed', error })
    return { ok: false, error }
  }
  const { market: m, quote: q, token } = o
  const amount = formatTokenAmount(q.tokensOut, token.decimals, {
    maxFractionDigits: 6,
    symbol: token.symbol,
  })
  const redeem = q.action === 'redeem'
  const held = q.outcomes.map((i, n) => ({
    label: `Shares of “${outcomeLabel(m, i)}”`,
    value: formatShares(q.sharesIn[n] ?? 0n),
  }))
  const result = await controls.send(redeem ? redeemCall(m) : liquidateCall(m, q.outcomes), {
    kind: 'trade',
    // the markets' chain (Delphi's networks may not be the wallet's): the wallet switches to it
    chainId: marketsFeedChainId() ?? undefined,
    confirmation: {
      title: `${redeem ? 'Redeem' : 'Liquidate'} for ${amount}`,
      details: [{ label: 'Market', value: marketTitle(m) }, ...held, { label: 'You receive', value: amount }],
      note: redeem
        ? 'Your winning shares go back to the market and it pays their share of the pool.'
        : 'The market ended without a winner: your shares go back to it at their frozen prices.',
      confirmLabel: redeem ? 'Redeem' : 'Liquidate',
    },
    onState: o.onState,
  })
  pokeMarketsFeed()
  if (!result.ok) return result
  const { logs } = result.receipt
  const received = redeem
    ? parseEventLogs({ abi: EXIT_EVENTS, logs, eventName: 'GatewayRedemption' })[0]?.args.tokensOut
    : parseEventLogs({ abi: EXIT_EVENTS, logs, eventName: 'GatewayLiquidation' })[0]?.args.totalTokensOut
  if (received === undefined)
    return {
      ok: false,
      error: `The ${redeem ? 'redemption' : 'liquidation'} landed but its receipt has no payout event.`,
    }
  return { ok: true, received }
}
