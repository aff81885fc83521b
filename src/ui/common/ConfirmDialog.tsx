// The app's confirmation dialog: shows the first pending request of the confirm store (burner trades,
// swarm submissions when not allowed automatically) and answers it. Escape cancels.
import { useEffect, useRef } from 'react'
import { answerConfirmation, currentConfirmation } from '../../host/stores/confirm-store.ts'
import { useConfirmStore } from '../stores.ts'

export function ConfirmDialog() {
  const request = useConfirmStore(currentConfirmation)
  const dialog = useRef<HTMLDialogElement>(null)

  useEffect(() => {
    const d = dialog.current
    if (!d) return
    if (request && !d.open) d.showModal()
    if (!request && d.open) d.close()
  }, [request])

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      data-testid="confirm-dialog"
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault()
        if (request) answerConfirmation(request.id, false)
      }}
    >
      {request && (
        <form method="dialog" onSubmit={(e) => e.preventDefault()}>
          <h2 id="confirm-title">{request.title}</h2>
          {request.details.length > 0 && (
            <dl className="kv confirm-details">
              {request.details.map((d) => (
                <div key={d.label} className="kv-row">
                  <dt>{d.label}</dt>
                  <dd>
                    <code>{d.value}</code>
                  </dd>
                </div>
              ))}
            </dl>
          )}
          {request.note && <p className="hint">{request.note}</p>}
          <div className="button-row confirm-actions">
            <button
              type="button"
              className="btn"
              data-testid="confirm-cancel"
              onClick={() => answerConfirmation(request.id, false)}
            >
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-primary"
              data-testid="confirm-ok"
              onClick={() => answerConfirmation(request.id, true)}
            >
              {request.confirmLabel ?? 'Confirm'}
            </button>
          </div>
        </form>
      )}
    </dialog>
  )
}
