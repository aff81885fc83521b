// The collateral of the markets (symbol and decimals), from the deployment.
import type { CollateralDeployment } from '../../chain/deployment.ts'
import { useWalletStore } from '../../state/wallet-store.ts'

export function useMarketToken(): CollateralDeployment | null {
  return useWalletStore((s) => s.deployment?.collateral ?? null)
}
