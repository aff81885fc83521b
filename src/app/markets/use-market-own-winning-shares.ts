// The settled DPM market's own balance of its winning outcome: the creator's locked shares plus every
// redeemed share (transferred to the market, not burned). The redeem payout needs it to know how many
// winning shares are still unclaimed. Read at the snapshot's block so both describe the same state.
import { useEffect, useState } from 'react'
import { errorSentence } from '../../chain/error-sentence.ts'
import { dynamicParimutuelGatewayAbi } from '../../chain/generated/DynamicParimutuelGateway.ts'
import { MARKET_STATUS, type MarketSnapshot } from '../../markets/market-snapshot.ts'
import { marketsFeedClient } from './markets-feed.ts'

export type OwnShares = { ok: true; shares: bigint } | { ok: false; error: string } | null

/** null while reading; LMSR and unsettled markets need no read (0). */
export function useMarketOwnWinningShares(m: MarketSnapshot): OwnShares {
  const needed = m.kind === 'dpm' && m.status === MARKET_STATUS.settled
  const [read, setRead] = useState<{ key: string; value: OwnShares }>({ key: '', value: null })
  const key = `${m.address}:${m.blockNumber}`
  useEffect(() => {
    const client = marketsFeedClient()
    if (!needed || !client) return
    let live = true
    client
      .readContract({
        address: m.gateway,
        abi: dynamicParimutuelGatewayAbi,
        functionName: 'balanceOf',
        args: [m.address, m.address, m.winningOutcomeIdx],
        blockNumber: m.blockNumber,
      })
      .then(
        (shares) => live && setRead({ key, value: { ok: true, shares } }),
        (err: unknown) => live && setRead({ key, value: { ok: false, error: errorSentence(err) } }),
      )
    return () => {
      live = false
    }
  }, [needed, key, m.gateway, m.address, m.winningOutcomeIdx, m.blockNumber])
  if (!needed) return { ok: true, shares: 0n }
  // a value read at another block would price the redemption on a different pool
  return read.key === key ? read.value : null
}
