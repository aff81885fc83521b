// The wallet for the UI: connection, balances, transactions in flight, registrations read from the
// chain (written by src/host/wallet/start-wallet.ts), and the user's wallet settings (persisted in
// localStorage, shared by the profile's tabs).
import { createStore } from 'zustand/vanilla'
import { createJSONStorage, persist } from 'zustand/middleware'
import type { Address } from 'viem'
import type { NetworkInfo } from '../chain/chains.ts'
import type { WalletKind } from '../chain/confirm-policy.ts'
import type { ChainDeployment } from '../chain/deployment.ts'
import type { ClaimView } from '../rewards/peer-claims.ts'
import { TX_IDLE, type TxState } from '../chain/tx-state.ts'

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected'

export interface WalletState {
  /** /deployment.json: null while loading or when the app server runs no chain */
  deployment: ChainDeployment | null
  /** why there is no deployment (a sentence), null when there is one or while loading */
  deploymentNote: string | null
  networks: NetworkInfo[]
  status: ConnectionStatus
  kind: WalletKind | null
  address: Address | null
  chainId: number | null
  /** the RPC URL of the connected chain */
  rpcUrl: string | null
  /** a window.ethereum provider exists */
  injectedAvailable: boolean
  /** the last connect / switch / chain read failure, as a sentence; null when all is well */
  error: string | null
  /** base units; null = not read yet (or no collateral on this chain) */
  ethBalance: bigint | null
  collateralBalance: bigint | null
  /** the chain's latest block the panel has read */
  blockNumber: bigint | null
  /** the burner was just topped up on the local chain */
  funded: boolean
  registration: TxState
  faucet: TxState
  /** peers the connected wallet registered (null: not read) */
  walletClaims: ClaimView[] | null
  /** every wallet's claim on this tab's peer id (null: not read) */
  peerClaims: ClaimView[] | null
}

export const walletStore = createStore<WalletState>()(() => ({
  deployment: null,
  deploymentNote: null,
  networks: [],
  status: 'disconnected',
  kind: null,
  address: null,
  chainId: null,
  rpcUrl: null,
  injectedAvailable: false,
  error: null,
  ethBalance: null,
  collateralBalance: null,
  blockNumber: null,
  funded: false,
  registration: TX_IDLE,
  faucet: TX_IDLE,
  walletClaims: null,
  peerClaims: null,
}))

export interface WalletSettings {
  /** which wallet to connect at start; 'none' after the user disconnected */
  preferred: WalletKind | 'none'
  /** the network the user picked last (null = the deployment's chain) */
  chainId: number | null
  /** RPC URL per chain id, replacing the default */
  rpcOverrides: Record<number, string>
  /** let the burner sign routine swarm submissions (rewards, votes) without asking; trades always ask */
  autoApproveSwarm: boolean
}

export const DEFAULT_WALLET_SETTINGS: WalletSettings = {
  preferred: 'burner',
  chainId: null,
  rpcOverrides: {},
  autoApproveSwarm: false,
}

export const walletSettingsStore = createStore<WalletSettings>()(
  persist(() => ({ ...DEFAULT_WALLET_SETTINGS }), {
    name: 'tabswarm:wallet-settings',
    version: 1,
    storage: createJSONStorage(() => localStorage),
  }),
)
