// The LMSR gateway on the chain: its market struct carries Σeᵢ, and the eᵢ are a read of their own.
import type { Abi } from 'viem'
import { lmsrGatewayAbi } from '../../generated/LmsrGateway.ts'
import type { MarketKindChain } from './market-kind-chain.ts'

const abi = lmsrGatewayAbi

export const lmsrChain: MarketKindChain = {
  gatewayAbi: abi as Abi,
  factory: (d) => d.lmsrFactory,
  gateway: (d) => d.lmsrGateway,
  readConfig: (client, m) =>
    client
      .readContract({ address: m.gateway, abi, functionName: 'getMarket', args: [m.address] })
      .then((g) => g.config),
  readState: async (client, m, blockNumber) => {
    const at = { address: m.gateway, abi, args: [m.address], blockNumber } as const
    const [g, exps] = await Promise.all([
      client.readContract({ ...at, functionName: 'getMarket' }),
      client.readContract({ ...at, functionName: 'outcomeExps' }),
    ])
    return { ...g, refund: 0n, sumTerm: 0n, exps: [...exps] }
  },
  // the LMSR quote also returns the fee; callers compare the tokens
  quote: (client, m, side, outcome, shares) =>
    client
      .readContract({
        address: m.gateway,
        abi,
        functionName: side === 'buy' ? 'quoteBuyExactOut' : 'quoteSellExactIn',
        args: [m.address, BigInt(outcome), shares],
        blockNumber: m.blockNumber,
      })
      .then(([tokens]) => tokens),
}
