// Delphi's verifiable settlement on the market page and the list: the "Verifiable" badge, and the
// settlement proof when the market has one — a link when it is an http(s) URL, a download of the
// receipt when it is the receipt itself, plain text otherwise (settlement-proof.ts decides which).
// The receipt is Gensyn's REE receipt, not a tabswarm one, so it is offered for download and not
// opened in the Verify view, which checks tabswarm receipts only.
import type { Address } from 'viem'
import { classifyProof } from '../../core/markets/settlement-proof.ts'
import { downloadFile } from '../../host/download-file.ts'
import { useMarketsStore } from '../stores.ts'

const VERIFIABLE_TITLE =
  'Settled by a model run under Gensyn’s reproducible execution environment (REE): anyone can re-run it from its receipt and check the outcome.'

/** Delphi's settlement facts of one market; null on the local chain. */
export const useMarketSettlement = (address: Address) =>
  useMarketsStore((s) => s.settlements[address.toLowerCase()] ?? null)

export function VerifiableBadge({ address }: { address: Address }) {
  const verifiable = useMarketSettlement(address)?.verifiable ?? false
  if (!verifiable) return null
  return (
    <span className="mk-verifiable" title={VERIFIABLE_TITLE} data-testid="market-verifiable">
      Verifiable
    </span>
  )
}

/** The "Settlement proof" row of the market page's facts; nothing when the market has no proof. */
export function SettlementProofFact({ address }: { address: Address }) {
  const proof = classifyProof(useMarketSettlement(address)?.proof ?? null)
  if (!proof) return null
  return (
    <>
      <dt>Settlement proof</dt>
      <dd className="mk-proof" data-testid="market-proof" data-kind={proof.kind}>
        {proof.kind === 'url' && (
          <a href={proof.href} target="_blank" rel="noopener noreferrer">
            Settlement proof
          </a>
        )}
        {proof.kind === 'receipt' && (
          <>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => downloadFile(`${address}.settlement-proof.json`, proof.document)}
            >
              Settlement proof
            </button>
            <div className="hint">
              An REE receipt: check it with Gensyn’s REE tools (validate its hashes, or verify by re-running).
            </div>
          </>
        )}
        {proof.kind === 'text' && <span data-testid="market-proof-text">{proof.text}</span>}
      </dd>
    </>
  )
}
