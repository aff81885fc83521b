// The wallet actions the UI can ask for, provided by start-wallet.ts (same pattern as controls.ts):
// views call these and read useWalletStore; they never touch wagmi or viem themselves.
import type { ContractCall, ContractTxResult } from '../chain/contract-tx.ts'
import type { TxKind, WalletKind } from '../chain/confirm-policy.ts'
import type { ConfirmRequest } from '../stores/confirm-store.ts'
import type { TxState } from '../chain/tx-state.ts'

export interface SendOptions {
  /** trade: always confirmed with the burner; swarm: unless allowed in the settings; direct: a click */
  kind: TxKind
  /** what the confirmation dialog shows */
  confirmation: ConfirmRequest
  onState?: (state: TxState) => void
  /** the chain to send on (the wallet switches to it first); default: the connected chain */
  chainId?: number
}

export interface WalletControls {
  connect(kind: WalletKind): Promise<void>
  disconnect(): Promise<void>
  /** switches the wallet's network (an injected wallet is asked to switch, or to add the chain) */
  switchNetwork(chainId: number): Promise<void>
  /** signs this tab's registration proof with the peer key and sends registerPeer */
  registerPeer(): Promise<void>
  /** the collateral faucet: requestToken() */
  requestTokens(): Promise<void>
  /** downloads the burner key encrypted with `passphrase` */
  exportBurner(passphrase: string): Promise<void>
  /** replaces the burner key with the one in a backup file; rejects with a sentence */
  importBurner(file: File, passphrase: string): Promise<void>
  /** sets (or with '' clears) the RPC URL of a chain; rejects with a sentence when it is not a URL */
  setRpcOverride(chainId: number, url: string): Promise<void>
  setAutoApproveSwarm(allow: boolean): void
  /** any contract call on the connected chain with the app's confirmation rules (markets use this) */
  send(call: ContractCall, options: SendOptions): Promise<ContractTxResult>
}

let current: WalletControls | null = null
const listeners = new Set<() => void>()

export function setWalletControls(controls: WalletControls | null): void {
  current = controls
  for (const listener of listeners) listener()
}

export function getWalletControls(): WalletControls | null {
  return current
}

/** Calls `listener` whenever the wallet controls are installed or removed; returns the unsubscribe. */
export function subscribeWalletControls(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
