// Deploys the markets' collateral (CollateralToken: 6 decimals, a faucet per address per period) to a
// local chain from anvil's account #0, which may also mint (seeding demo markets), or keeps an earlier
// deployment the chain still has.
import type { Address } from 'viem'
import type { CollateralDeployment } from './deployment.ts'
import { collateralTokenAbi, collateralTokenBytecode } from './generated/CollateralToken.ts'
import { deployContract, hasCode, localClients } from './local-clients.ts'

export const LOCAL_COLLATERAL = {
  name: 'tabswarm USD',
  symbol: 'tUSD',
  decimals: 6,
  /** 1,000 tUSD per request, like Delphi's testnet faucet */
  faucetAmount: 1_000n * 10n ** 6n,
  /** one request per address per hour: enough to test trading, too slow to farm */
  faucetPeriodSeconds: 3_600n,
} as const

export async function deployCollateral(options: {
  rpcUrl: string
  previous?: CollateralDeployment
}): Promise<CollateralDeployment & { reused: boolean }> {
  const { client, wallet } = await localClients(options.rpcUrl)
  const { previous } = options
  if (previous && (await hasCode(client, previous.address))) return { ...previous, reused: true }
  const c = LOCAL_COLLATERAL
  const { address } = await deployContract(client, wallet, 'CollateralToken', {
    abi: collateralTokenAbi,
    bytecode: collateralTokenBytecode,
    args: [c.name, c.symbol, c.decimals, c.faucetAmount, c.faucetPeriodSeconds, wallet.account.address],
  })
  return { address: address as Address, symbol: c.symbol, decimals: c.decimals, reused: false }
}
