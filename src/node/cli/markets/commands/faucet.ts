// `faucet`: test collateral for the signing account from the token's own faucet (the local chain's tUSD
// gives 1,000 per address per hour), so an agent with a fresh key can trade without the Wallet view.
import type { MarketCommand } from '../command.ts'
import { amountOf, txJson } from '../output.ts'

export const faucetCommand: MarketCommand = {
  spec: {
    args: [],
    flags: {},
    summary: 'get test collateral from the token faucet (once per hour per address)',
  },
  signs: true,
  async run(backend) {
    const { token } = backend
    const tx = await backend.faucet()
    return {
      account: backend.account,
      received: amountOf(tx.received, token.decimals, token.symbol),
      balance: amountOf(await backend.collateralBalance(backend.account!), token.decimals, token.symbol),
      tx: txJson(tx),
    }
  },
}
