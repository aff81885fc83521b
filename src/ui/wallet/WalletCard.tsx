// The connected wallet: which one, its address, network (switch / add), ETH and collateral balances,
// and the collateral faucet.
import { useState } from 'react'
import { formatEth, formatTokenAmount } from '../../core/markets/token-amount.ts'
import { txBusy } from '../../host/chain/tx-state.ts'
import type { WalletKind } from '../../host/chain/confirm-policy.ts'
import { Card } from '../common/Card.tsx'
import { CopyButton } from '../common/CopyButton.tsx'
import { useWalletControls } from '../use-controls.ts'
import { TxStatus } from './TxStatus.tsx'
import { useWalletSettings, useWalletStore } from '../stores.ts'

const KIND_LABEL: Record<WalletKind, string> = { burner: 'Burner (this browser)', injected: 'Browser wallet' }

export function WalletCard() {
  const s = useWalletStore()
  const preferredChain = useWalletSettings((x) => x.chainId)
  const controls = useWalletControls()
  const [busy, setBusy] = useState<string | null>(null)
  const [actionError, setActionError] = useState<string | null>(null)

  const act = async (what: string, fn: () => Promise<void>) => {
    setBusy(what)
    setActionError(null)
    try {
      await fn()
    } catch (err) {
      setActionError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(null)
    }
  }

  const connected = s.status === 'connected'
  const network = s.networks.find((n) => n.id === s.chainId)
  const onDeploymentChain = s.deployment !== null && s.chainId === s.deployment.chainId
  const collateral = onDeploymentChain ? s.deployment?.collateral : undefined
  const faucetBusy = txBusy(s.faucet)

  return (
    <Card
      title="Wallet"
      testId="wallet-card"
      aside={
        <span
          className={`pill tone-${connected ? 'good' : s.status === 'connecting' ? 'warn' : 'muted'}`}
          data-testid="wallet-status"
          data-status={s.status}
          data-kind={s.kind ?? ''}
        >
          {connected && s.kind ? KIND_LABEL[s.kind] : s.status}
        </span>
      }
    >
      <dl className={`kv wallet-kv ${s.error && connected ? 'stale' : ''}`}>
        <dt>Address</dt>
        <dd className="id-line">
          {s.address ? (
            <>
              <code className="peer-id" data-testid="wallet-address">
                {s.address}
              </code>
              <CopyButton text={s.address} testId="copy-wallet-address" />
            </>
          ) : (
            <span className="muted">not connected</span>
          )}
        </dd>
        <dt>Network</dt>
        <dd>
          <select
            className="select"
            aria-label="Network"
            value={String(s.chainId ?? preferredChain ?? s.networks[0]?.id ?? '')}
            disabled={!controls || busy !== null}
            onChange={(e) => void act('switch', () => controls!.switchNetwork(Number(e.target.value)))}
          >
            {s.networks.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name} ({n.id})
              </option>
            ))}
          </select>
          {s.rpcUrl && (
            <div className="sub muted" data-testid="wallet-rpc">
              RPC <code>{s.rpcUrl}</code>
            </div>
          )}
        </dd>
        <dt>ETH</dt>
        <dd className="balance" data-testid="eth-balance" data-wei={s.ethBalance?.toString() ?? ''}>
          {s.ethBalance === null ? <span className="muted">—</span> : formatEth(s.ethBalance)}
          {s.funded && s.kind === 'burner' && network?.local && (
            <span className="hint-inline">funded for local gas</span>
          )}
        </dd>
        <dt>{collateral?.symbol ?? 'Collateral'}</dt>
        <dd
          className="balance"
          data-testid="collateral-balance"
          data-units={s.collateralBalance?.toString() ?? ''}
        >
          {collateral && s.collateralBalance !== null ? (
            formatTokenAmount(s.collateralBalance, collateral.decimals, {
              maxFractionDigits: 2,
              symbol: collateral.symbol,
            })
          ) : (
            <span className="muted">{collateral ? '—' : 'no collateral token on this network'}</span>
          )}
        </dd>
        {s.blockNumber !== null && (
          <>
            <dt>Block</dt>
            <dd data-testid="wallet-block">{String(s.blockNumber)}</dd>
          </>
        )}
      </dl>

      <div className="button-row">
        {!connected && (
          <button
            type="button"
            className="btn btn-primary"
            data-testid="connect-burner"
            disabled={!controls || busy !== null || s.status === 'connecting'}
            onClick={() => void act('burner', () => controls!.connect('burner'))}
          >
            Use burner wallet
          </button>
        )}
        {!(connected && s.kind === 'injected') && (
          <button
            type="button"
            className="btn"
            disabled={!controls || busy !== null || !s.injectedAvailable}
            title={
              s.injectedAvailable ? 'Connect MetaMask or another browser wallet' : 'No browser wallet found'
            }
            onClick={() => void act('injected', () => controls!.connect('injected'))}
          >
            {connected ? 'Switch to browser wallet' : 'Connect browser wallet'}
          </button>
        )}
        {connected && (
          <button
            type="button"
            className="btn"
            data-testid="disconnect-button"
            disabled={!controls || busy !== null}
            onClick={() => void act('disconnect', () => controls!.disconnect())}
          >
            Disconnect
          </button>
        )}
        {collateral && (
          <button
            type="button"
            className="btn"
            data-testid="faucet-button"
            disabled={!controls || !connected || faucetBusy}
            onClick={() => void act('faucet', () => controls!.requestTokens())}
            title={`Ask the ${collateral.symbol} faucet for test tokens (once per period)`}
          >
            {faucetBusy ? 'Requesting…' : `Get test ${collateral.symbol}`}
          </button>
        )}
      </div>
      <TxStatus state={s.faucet} testId="faucet-status" what="Faucet" />
      {!s.injectedAvailable && !connected && (
        <p className="hint">
          No browser wallet (MetaMask…) in this browser: the burner is a key kept in this browser.
        </p>
      )}
      {s.deploymentNote && <p className="hint">{s.deploymentNote}</p>}
      {(actionError ?? s.error) && (
        <p className="inline-error" role="alert" data-testid="wallet-error">
          {actionError ?? s.error}
        </p>
      )}
    </Card>
  )
}
