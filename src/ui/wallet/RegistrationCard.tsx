// Registering this tab's peer to the connected wallet (one click: the peer key signs the proof, the
// wallet sends registerPeer), and what the chain says: the wallet's peers and every claim on this
// peer id, each verified here (an unverified claim is a proof that does not hold).
import type { ReactNode } from 'react'
import { txBusy } from '../../host/chain/tx-state.ts'
import type { ClaimView } from '../../host/rewards/peer-claims.ts'
import { Card } from '../common/Card.tsx'
import { RelativeTime } from '../common/RelativeTime.tsx'
import { shortId } from '../../host/format.ts'
import { useWalletControls } from '../use-controls.ts'
import { TxStatus } from './TxStatus.tsx'
import { TableScroll } from '../common/TableScroll.tsx'
import { useSwarmStore, useWalletStore } from '../stores.ts'

function VerifiedBadge({ claim }: { claim: ClaimView }) {
  return claim.verified ? (
    <span
      className="badge claim-verified"
      title="The proof holds: this peer’s key signed it for this wallet and chain"
    >
      verified
    </span>
  ) : (
    <>
      <span
        className="badge claim-unverified"
        title={`The proof does not hold: ${claim.problem ?? 'unknown'}. Ignored.`}
      >
        unverified
      </span>
      <div className="claim-problem" data-testid="claim-problem">
        {claim.problem}
      </div>
    </>
  )
}

const shortAddress = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`

export function RegistrationCard() {
  const self = useSwarmStore((s) => s.self)
  const s = useWalletStore()
  const controls = useWalletControls()
  const connected = s.status === 'connected'
  const onChain = s.deployment !== null && s.chainId === s.deployment.chainId
  const mine = s.peerClaims?.find((c) => c.wallet === s.address) ?? null
  const busy = txBusy(s.registration)
  const disabledWhy = !s.deployment
    ? 'No SwarmCoordinator is known: the app server runs no chain.'
    : !connected
      ? 'Connect a wallet first.'
      : !self
        ? 'This tab has no peer identity yet.'
        : null

  return (
    <Card
      title="Peer registration"
      testId="registration-card"
      aside={
        mine ? (
          <span
            className={`pill tone-${mine.verified ? 'good' : 'bad'}`}
            data-testid="self-registration"
            data-verified={String(mine.verified)}
          >
            {mine.verified ? 'registered · verified' : 'registered · unverified'}
          </span>
        ) : (
          <span className="pill tone-muted" data-testid="self-registration" data-verified="none">
            not registered
          </span>
        )
      }
    >
      <p className="card-lead">
        Binds this tab’s peer <code title={self?.peerId}>{self ? shortId(self.peerId) : '—'}</code> to the
        wallet on the swarm coordinator: the peer key signs a proof for this wallet and chain, the wallet
        sends it.
        {connected && !onChain && s.deployment && ' Switching to the swarm’s chain first.'}
      </p>
      <div className="button-row">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="register-button"
          disabled={!controls || busy || disabledWhy !== null}
          title={disabledWhy ?? undefined}
          onClick={() => void controls?.registerPeer()}
        >
          {busy ? 'Registering…' : mine ? 'Register again' : 'Register this peer'}
        </button>
      </div>
      {disabledWhy && <p className="hint">{disabledWhy}</p>}
      <TxStatus state={s.registration} testId="registration-status" what="Registration" />

      <h3>
        Peers of this wallet <span className="count">{s.walletClaims?.length ?? 0}</span>
      </h3>
      <ClaimTable
        claims={s.walletClaims}
        rowTestId="wallet-peer-row"
        first="Peer"
        cell={(c) => (
          <>
            <code title={c.peerId}>{shortId(c.peerId)}</code>
            {c.peerId === self?.peerId && <span className="tag">this tab</span>}
          </>
        )}
        empty={connected ? 'This wallet has registered no peer yet.' : 'Connect a wallet to see its peers.'}
      />

      <h3>
        Claims on this peer <span className="count">{s.peerClaims?.length ?? 0}</span>
      </h3>
      <ClaimTable
        claims={s.peerClaims}
        rowTestId="peer-claim-row"
        first="Wallet"
        cell={(c) => (
          <>
            <code title={c.wallet}>{shortAddress(c.wallet)}</code>
            {c.wallet === s.address && <span className="tag">this wallet</span>}
          </>
        )}
        empty={
          !s.deployment
            ? 'No swarm coordinator is known here.'
            : onChain
              ? 'No wallet claims this peer yet.'
              : 'Switch to the swarm’s chain to read the claims.'
        }
      />
      <p className="hint">
        The coordinator stores every claim without checking it; this tab checks each proof (the peer’s own
        key, signed for that wallet, this chain and this coordinator). Unverified claims are ignored.
      </p>
    </Card>
  )
}

function ClaimTable({
  claims,
  rowTestId,
  first,
  cell,
  empty,
}: {
  claims: ClaimView[] | null
  rowTestId: string
  first: string
  cell: (c: ClaimView) => ReactNode
  empty: string
}) {
  return (
    <TableScroll label="Registrations">
      <table className="table claims-table">
        <thead>
          <tr>
            <th>{first}</th>
            <th>Registered</th>
            <th>Proof</th>
          </tr>
        </thead>
        <tbody>
          {!claims || claims.length === 0 ? (
            <tr className="empty-row">
              <td colSpan={3}>{empty}</td>
            </tr>
          ) : (
            claims.map((c) => (
              <tr
                key={`${c.peerId}/${c.wallet}`}
                data-testid={rowTestId}
                data-peer-id={c.peerId}
                data-wallet={c.wallet}
                data-verified={String(c.verified)}
                className={c.verified ? '' : 'claim-row-unverified'}
              >
                <td>{cell(c)}</td>
                <td>
                  <RelativeTime at={c.registeredAt * 1000} />
                </td>
                <td>
                  <VerifiedBadge claim={c} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </TableScroll>
  )
}
