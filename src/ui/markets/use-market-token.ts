// The collateral of the markets (symbol and decimals): the feed's on Delphi's networks, else the
// deployment's.
import type { CollateralDeployment } from '../../host/chain/deployment.ts'
import { useMarketsStore, useWalletStore } from '../stores.ts'

export function useMarketToken(): CollateralDeployment | null {
  const feedToken = useMarketsStore((s) => s.token)
  const deploymentToken = useWalletStore((s) => s.deployment?.collateral ?? null)
  return feedToken ?? deploymentToken
}
