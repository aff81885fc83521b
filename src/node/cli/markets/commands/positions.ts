// `positions [--address a]`: the collateral balance and every market where the address holds shares,
// with what it can do there now (sell, wait, redeem, liquidate) and, on open markets, what each
// holding sells for at the current price.
import { getAddress, isAddress, type Address } from 'viem'
import { MARKET_STATUS, outcomeLabel, type MarketSnapshot } from '../../../../core/markets/market-snapshot.ts'
import { quoteTrade } from '../../../../core/markets/trade-quote.ts'
import type { MarketCommand } from '../command.ts'
import { CommandError } from '../command-error.ts'
import { marketId, statusName } from '../market-json.ts'
import { allowanceOf, amountOf, sharesOf } from '../output.ts'
import { PRIVATE_KEY_ENV } from '../signer.ts'

const ACTIONS: Record<number, string> = {
  [MARKET_STATUS.open]: 'sell',
  [MARKET_STATUS.awaitingSettlement]: 'wait',
  [MARKET_STATUS.settled]: 'redeem',
  [MARKET_STATUS.expired]: 'liquidate',
  [MARKET_STATUS.failed]: 'liquidate',
}

function owner(flag: string | undefined, account: Address | null): Address {
  if (flag !== undefined) {
    if (!isAddress(flag, { strict: false }))
      throw new CommandError('usage', `--address must be an address (0x and 40 hex digits), not “${flag}”.`)
    return getAddress(flag)
  }
  if (account) return account
  throw new CommandError('no-key', `Whose positions? Pass --address, or set ${PRIVATE_KEY_ENV}.`)
}

/** What selling `shares` of `outcome` pays now, or null when the market is not open or refuses it. */
function sellValue(m: MarketSnapshot, outcome: number, shares: bigint): bigint | null {
  if (m.status !== MARKET_STATUS.open) return null
  const q = quoteTrade(m, { side: 'sell', outcome, shares, slippageBps: 0 })
  return q.ok ? q.quote.tokens : null
}

export const positionsCommand: MarketCommand = {
  spec: {
    args: [],
    flags: { address: 'whose positions (default: the key’s address)' },
    summary: 'your shares in every market',
  },
  signs: false,
  async run(backend, { flags }) {
    const { token } = backend
    const who = owner(flags.address, backend.account)
    // A network that indexes positions names the markets to read; otherwise every market is read.
    const [balance, markets] = await Promise.all([
      backend.collateralBalance(who),
      backend.marketsHeldBy ? backend.marketsHeldBy(who) : backend.listMarkets(),
    ])
    const positions = await Promise.all(markets.map(async (m) => ({ m, p: await backend.position(m, who) })))
    return {
      address: who,
      balance: amountOf(balance, token.decimals, token.symbol),
      positions: positions
        .filter(({ p }) => p.shares.some((s) => s > 0n))
        .map(({ m, p }) => ({
          market: marketId(m),
          address: m.address,
          question: m.metadata?.question ?? null,
          status: statusName(m.status),
          action: ACTIONS[m.status] ?? null,
          allowance: allowanceOf(p.allowance, token.decimals, token.symbol),
          outcomes: p.shares.flatMap((s, i) => {
            if (s === 0n) return []
            const value = sellValue(m, i, s)
            return [
              {
                index: i,
                label: outcomeLabel(m, i),
                shares: sharesOf(s),
                sellValue: value === null ? null : amountOf(value, token.decimals, token.symbol),
              },
            ]
          }),
        })),
    }
  },
}
