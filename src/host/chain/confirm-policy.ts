// When a transaction needs the user's explicit yes inside the app. An injected wallet (MetaMask, …)
// asks in its own window, so the app never asks twice. The in-tab burner has no window of its own:
// trades always ask; routine swarm submissions ask unless the user allowed them in the settings;
// an action the user just clicked in the wallet panel (register, faucet) is its own confirmation.

export type WalletKind = 'burner' | 'injected'
/** trade: markets (value at stake); swarm: automatic submissions (rewards, votes); direct: a click in the panel */
export type TxKind = 'trade' | 'swarm' | 'direct'

export function needsConfirmation(wallet: WalletKind, kind: TxKind, autoApproveSwarm: boolean): boolean {
  if (wallet !== 'burner') return false
  if (kind === 'trade') return true
  if (kind === 'swarm') return !autoApproveSwarm
  return false
}
