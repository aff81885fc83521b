// Delphi’s networks as a client needs them (research/delphi.md §8): chain, RPC, REST API, subgraph,
// the gateways with the factory each one asks `marketProxiesExist`, and the collateral. Every field
// can be overridden (a local stand-in in the tests, another RPC provider, a new gateway).
import { getAddress, type Address } from 'viem'
import { GENSYN_MAINNET, GENSYN_TESTNET } from '../chain/chains.ts'
import type { MarketKind } from '../../core/markets/market-kinds.ts'

export const DELPHI_NETWORK_NAMES = ['testnet', 'mainnet', 'competition-testnet'] as const
export type DelphiNetworkName = (typeof DELPHI_NETWORK_NAMES)[number]

/** One gateway and the factory whose proxies it trades. */
export interface DelphiGateway {
  /** e.g. "automated", "legacy", "lmsr": shown in errors and `show` */
  label: string
  kind: MarketKind
  gateway: Address
  factory: Address
}

export interface DelphiNetwork {
  name: DelphiNetworkName
  chainId: number
  rpcUrl: string
  /** REST API base, without a trailing slash */
  restUrl: string
  /** `X-Delphi-Mode` header value; null: the header is not sent */
  mode: 'competition' | null
  subgraphUrl: string
  /** asked in this order when routing a market; the first whose factory deployed it serves it */
  gateways: DelphiGateway[]
  token: Address
  /** the testnet faucet contract (`requestToken()`); null where there is none */
  faucet: Address | null
  /** market → gateway address: routes those markets without asking the factories (config) */
  pins: Readonly<Record<string, Address>>
}

/** Goldsky's public endpoint of Gensyn's Delphi subgraphs (gensyn-delphi-sdk v2.1.0 NETWORK_DEFAULTS). */
const SUBGRAPH = (name: string) =>
  `https://api.goldsky.com/api/public/project_cmnoqdag1obop01z3efnu8ssq/subgraphs/${name}/1.0.0/gn`
/** The REST APIs of gensyn-delphi-sdk v2.1.0's NETWORK_DEFAULTS (`apiBaseUrl`); paths are absolute. */
const TESTNET_API = 'https://delphi-api.gensyn.ai'
const MAINNET_API = 'https://api.delphi.fyi'

const a = getAddress

export const DELPHI_NETWORKS: Readonly<Record<DelphiNetworkName, DelphiNetwork>> = {
  testnet: {
    name: 'testnet',
    chainId: GENSYN_TESTNET.id,
    rpcUrl: GENSYN_TESTNET.defaultRpcUrl,
    restUrl: TESTNET_API,
    mode: null,
    subgraphUrl: SUBGRAPH('delphi-testnet-autoset'),
    gateways: [
      {
        label: 'automated',
        kind: 'dpm',
        gateway: a('0x22ea355D7218Dc86b4c83732cBbd01f7Ff2332b3'),
        factory: a('0x97d2b3F0614C8189343A38094629FCE2910b727A'),
      },
      {
        label: 'legacy',
        kind: 'dpm',
        gateway: a('0x7b8FDBD187B0Be5e30e48B1995df574A62667147'),
        factory: a('0xd03CEC55802f0D44D844384E1144B25717315E5A'),
      },
    ],
    token: a('0x0724D6079b986F8e44bDafB8a09B60C0bd6A45a1'),
    faucet: a('0xB5876320DdA1AEE3eFC03aD02dC2e2CB4b61B7D9'),
    pins: {},
  },
  mainnet: {
    name: 'mainnet',
    chainId: GENSYN_MAINNET.id,
    rpcUrl: GENSYN_MAINNET.defaultRpcUrl,
    restUrl: MAINNET_API,
    mode: null,
    subgraphUrl: SUBGRAPH('delphi-mainnet-autoset'),
    gateways: [
      {
        label: 'automated',
        kind: 'dpm',
        gateway: a('0x982a67aE92D8de361957249fB2BB4a62BCc6A8d5'),
        factory: a('0x9C73417f79a1361c6aF9Bd828343badEE1b84936'),
      },
      {
        label: 'legacy',
        kind: 'dpm',
        gateway: a('0x4e4e85c52E0F414cc67eE88d0C649Ec81698d700'),
        factory: a('0x4596d847eA56DCf9A37944c13793Af802Fc5D1eC'),
      },
    ],
    token: a('0x5b32c997211621d55a89Cc5abAF1cC21F3A6ddF5'),
    faucet: null,
    pins: {},
  },
  'competition-testnet': {
    name: 'competition-testnet',
    chainId: GENSYN_TESTNET.id,
    rpcUrl: GENSYN_TESTNET.defaultRpcUrl,
    // The competition shares the testnet API and chain; the mode header selects its markets. Its
    // subgraph name is research/delphi.md §7's, at the same Goldsky project as the SDK's two.
    restUrl: TESTNET_API,
    mode: 'competition',
    subgraphUrl: SUBGRAPH('delphi-agent-competition'),
    gateways: [
      {
        label: 'lmsr',
        kind: 'lmsr',
        gateway: a('0x097599c9D966fF496284b892A8F13BF885b258ef'),
        factory: a('0xEa9D0a78d0209916e88e363B8FDa3e23206Ff49b'),
      },
    ],
    token: a('0x8A2d75753362Eb5D5669a2c22cbf394b26a0571F'),
    faucet: null,
    pins: {},
  },
}

export const isDelphiNetworkName = (name: string): name is DelphiNetworkName =>
  (DELPHI_NETWORK_NAMES as readonly string[]).includes(name)

/** The defaults of `name` with `overrides` applied (a trailing slash of a URL is dropped). */
export function delphiNetwork(
  name: DelphiNetworkName,
  overrides: Partial<Omit<DelphiNetwork, 'name'>> = {},
): DelphiNetwork {
  const merged = { ...DELPHI_NETWORKS[name], ...overrides, name }
  const trim = (url: string) => url.replace(/\/+$/, '')
  return { ...merged, restUrl: trim(merged.restUrl), rpcUrl: trim(merged.rpcUrl) }
}
