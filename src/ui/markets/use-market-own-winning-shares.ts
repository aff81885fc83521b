// The settled DPM market's own balance of its winning outcome: the creator's locked shares plus every
// redeemed share (transferred to the market, not burned). The redeem payout needs it to know how many
// winning shares are still unclaimed. Read at the snapshot's block so both describe the same state.
import { useEffect, useState } from 'react'
import type { PublicClient } from 'viem'
import { errorSentence } from '../../host/chain/error-sentence.ts'
import { dynamicParimutuelGatewayAbi } from '../../host/chain/generated/DynamicParimutuelGateway.ts'
import { MARKET_KINDS } from '../../core/markets/market-kinds.ts'
import { MARKET_STATUS, type MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { marketsFeedClient } from '../../host/markets/markets-feed.ts'

export type OwnShares = { ok: true; shares: bigint } | { ok: false; error: string } | null

/** Whether redeeming on `m` needs its own winning shares read (settled markets of a kind that does: DPM). */
export const needsOwnWinningShares = (m: MarketSnapshot): boolean =>
  MARKET_KINDS[m.kind].redeemNeedsOwnShares && m.status === MARKET_STATUS.settled

/** The read, at the snapshot's block; a value read at another block would price a different pool. */
export function readOwnWinningShares(
  client: PublicClient,
  m: Pick<MarketSnapshot, 'gateway' | 'address' | 'winningOutcomeIdx' | 'blockNumber'>,
): Promise<bigint> {
  return client.readContract({
    address: m.gateway,
    abi: dynamicParimutuelGatewayAbi,
    functionName: 'balanceOf',
    args: [m.address, m.address, m.winningOutcomeIdx],
    blockNumber: m.blockNumber,
  })
}

/** null while reading; markets that need no read (LMSR, unsettled) give 0. */
export function useMarketOwnWinningShares(m: MarketSnapshot): OwnShares {
  const needed = needsOwnWinningShares(m)
  const [read, setRead] = useState<{ key: string; value: OwnShares }>({ key: '', value: null })
  const key = `${m.address}:${m.blockNumber}`
  const { gateway, address, winningOutcomeIdx, blockNumber } = m
  useEffect(() => {
    const client = marketsFeedClient()
    if (!needed || !client) return
    let live = true
    readOwnWinningShares(client, { gateway, address, winningOutcomeIdx, blockNumber }).then(
      (shares) => live && setRead({ key, value: { ok: true, shares } }),
      (err: unknown) => live && setRead({ key, value: { ok: false, error: errorSentence(err) } }),
    )
    return () => {
      live = false
    }
  }, [needed, key, gateway, address, winningOutcomeIdx, blockNumber])
  if (!needed) return { ok: true, shares: 0n }
  return read.key === key ? read.value : null
}
