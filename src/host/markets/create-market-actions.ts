// Creates a market on the local chain from a checked form draft, through the wallet like a trade
// (simulate → burner confirmation → sign → receipt): an approval of the factory for the deposit when
// the allowance is short, then the factory's deployNewMarketProxy. The deadlines are fixed against the
// chain's clock (its latest block), which a local chain may have moved away from the wall clock.
import { parseEventLogs, type Abi, type Address } from 'viem'
import type { ContractTxResult } from '../chain/contract-tx.ts'
import type { CollateralDeployment, MarketsDeployment } from '../chain/deployment.ts'
import { collateralTokenAbi } from '../chain/generated/CollateralToken.ts'
import { delphiFactoryAbi } from '../chain/generated/DelphiFactory.ts'
import { CHAIN_KINDS } from '../chain/markets/chain-kinds.ts'
import { approveMarketCall } from '../chain/markets/market-calls.ts'
import { MARKET_KINDS } from '../../core/markets/market-kinds.ts'
import { encodeMarketConfig } from '../../core/markets/market-config.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import type { TxState } from '../chain/tx-state.ts'
import { marketRequestAt, type CreateMarketDraft } from '../../core/markets/create-market-form.ts'
import { encodeMetadata } from '../../core/markets/metadata.ts'
import { formatFee } from '../../core/markets/market-format.ts'
import { walletStore } from '../stores/wallet-store.ts'
import { getWalletControls } from '../wallet/wallet-controls.ts'
import { marketsFeedClient, pokeMarketsFeed } from './markets-feed.ts'

export type CreateResult = { ok: true; market: Address } | { ok: false; error: string }

export interface RunCreateOptions {
  draft: CreateMarketDraft
  markets: MarketsDeployment
  token: CollateralDeployment
  onApproval: (s: TxState) => void
  onCreate: (s: TxState) => void
}

export async function runCreateMarket(o: RunCreateOptions): Promise<CreateResult> {
  const controls = getWalletControls()
  const client = marketsFeedClient()
  const owner = walletStore.getState().address
  const fail = (error: string): CreateResult => {
    o.onCreate({ phase: 'failed', error })
    return { ok: false, error }
  }
  if (!controls || !client || !owner) return fail('The wallet has not started yet; try again in a moment.')
  const { draft: d, token } = o
  const factory = CHAIN_KINDS[d.kind].factory(o.markets)
  const amount = formatTokenAmount(d.deposit, token.decimals, { maxFractionDigits: 6, symbol: token.symbol })
  const [allowance, block] = await Promise.all([
    client.readContract({
      address: token.address,
      abi: collateralTokenAbi,
      functionName: 'allowance',
      args: [owner, factory],
    }),
    client.getBlock({ blockTag: 'latest' }),
  ])
  if (allowance < d.deposit) {
    const approved = await controls.send(approveMarketCall(token.address, factory, d.deposit), {
      kind: 'trade',
      confirmation: {
        title: `Allow the market factory to take ${amount}`,
        details: [
          { label: 'Spender (factory)', value: factory },
          { label: 'Allowance', value: amount },
        ],
        note: 'The factory moves the deposit into the new market when it creates it; the allowance covers exactly that.',
        confirmLabel: 'Approve',
      },
      onState: o.onApproval,
    })
    if (!approved.ok) return fail(`No market: the approval failed. ${approved.error}`)
  }
  const config = marketRequestAt(d, block.timestamp)
  const result: ContractTxResult = await controls.send(
    {
      address: factory,
      abi: delphiFactoryAbi as Abi,
      functionName: 'deployNewMarketProxy',
      args: [d.deposit, encodeMetadata(d.metadata), encodeMarketConfig(config)],
    },
    {
      kind: 'trade',
      confirmation: {
        title: `Create “${d.metadata.question}”`,
        details: [
          { label: 'Pricing', value: MARKET_KINDS[d.kind].name },
          { label: 'Outcomes', value: d.metadata.outcomes.join(' · ') },
          { label: 'Deposit', value: amount },
          { label: 'Trading fee', value: formatFee(d.tradingFee) },
        ],
        note: 'The deposit funds the market’s pool; trading opens as soon as the market is created.',
        confirmLabel: 'Create market',
      },
      onState: o.onCreate,
    },
  )
  pokeMarketsFeed()
  if (!result.ok) return result
  const [created] = parseEventLogs({
    abi: delphiFactoryAbi,
    logs: result.receipt.logs,
    eventName: 'NewMarketProxy',
  })
  if (!created)
    return { ok: false, error: 'The market was created but its receipt has no NewMarketProxy event.' }
  return { ok: true, market: created.args.marketProxy }
}
