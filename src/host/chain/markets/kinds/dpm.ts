// The dynamic parimutuel gateway on the chain: its market struct carries the refund and Σq².
import type { Abi } from 'viem'
import { dynamicParimutuelGatewayAbi } from '../../generated/DynamicParimutuelGateway.ts'
import type { MarketKindChain } from './market-kind-chain.ts'

const abi = dynamicParimutuelGatewayAbi

export const dpmChain: MarketKindChain = {
  gatewayAbi: abi as Abi,
  factory: (d) => d.dpmFactory,
  gateway: (d) => d.dpmGateway,
  readConfig: (client, m) =>
    client
      .readContract({ address: m.gateway, abi, functionName: 'getMarket', args: [m.address] })
      .then((g) => g.config),
  readState: (client, m, blockNumber) =>
    client
      .readContract({ address: m.gateway, abi, functionName: 'getMarket', args: [m.address], blockNumber })
      .then((g) => ({ ...g, sumTerm: g.sumTerm36, exps: [], expSum: 0n })),
  quote: (client, m, side, outcome, shares) =>
    client.readContract({
      address: m.gateway,
      abi,
      functionName: side === 'buy' ? 'quoteBuyExactOut' : 'quoteSellExactIn',
      args: [m.address, BigInt(outcome), shares],
      blockNumber: m.blockNumber,
    }),
}
