// The create-market form (#/markets/create), on the local chain only: question, 2–8 outcomes, category,
// resolution criteria, pricing (DPM or LMSR), liquidity, deposit, trading fee, how long trading stays
// open and how long the oracle has to settle. Each field is checked as typed with the contracts'
// limits (src/core/markets/create-market-form.ts); sending simulates first, then the new market shows in
// the list.
import { useState, type ReactNode } from 'react'
import type { Address } from 'viem'
import { errorSentence } from '../../host/chain/error-sentence.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import { TX_IDLE, txBusy, type TxState } from '../../host/chain/tx-state.ts'
import {
  DURATION_UNITS,
  FORM_MAX_OUTCOMES,
  FORM_MIN_OUTCOMES,
  checkCreateMarket,
  type CreateMarketField,
  type CreateMarketInput,
  type DurationUnit,
} from '../../core/markets/create-market-form.ts'
import { MARKET_KINDS, MARKET_KIND_NAMES } from '../../core/markets/market-kinds.ts'
import { MARKET_CATEGORIES, type MarketCategory } from '../../core/markets/metadata.ts'
import { Card } from '../common/Card.tsx'
import { TxStatus } from '../wallet/TxStatus.tsx'
import { isLocalDeployment } from '../../host/chain/deployment-client.ts'
import { runCreateMarket } from '../../host/markets/create-market-actions.ts'
import { MarketsStatus } from './MarketsStatus.tsx'
import { marketHref } from '../../host/markets/market-route.ts'
import { useMarketToken } from './use-market-token.ts'
import { useMarketsStore, useWalletStore } from '../stores.ts'

const INITIAL: CreateMarketInput = {
  kind: 'dpm',
  question: '',
  outcomes: ['Yes', 'No'],
  category: 'miscellaneous',
  resolutionCriteria: '',
  liquidity: MARKET_KINDS.dpm.liquidity.defaultValue,
  deposit: '100',
  fee: '2',
  tradingFor: '7',
  tradingUnit: 'days',
  settlementWithin: '12',
  settlementUnit: 'hours',
}

export function CreateMarketForm() {
  const deployment = useWalletStore((s) => s.deployment)
  const token = useMarketToken()
  const balance = useMarketsStore((s) => s.collateralBalance)
  const [input, setInput] = useState<CreateMarketInput>(INITIAL)
  const [touched, setTouched] = useState<ReadonlySet<CreateMarketField>>(new Set())
  const [tried, setTried] = useState(false)
  const [approval, setApproval] = useState<TxState>(TX_IDLE)
  const [create, setCreate] = useState<TxState>(TX_IDLE)
  const [sending, setSending] = useState(false)
  const [created, setCreated] = useState<Address | null>(null)

  if (!deployment?.markets || !token)
    return (
      <Card title="Create a market" testId="create-market" aside={<MarketsStatus />}>
        <p className="hint">This chain has no market contracts deployed: start the stack with a chain.</p>
      </Card>
    )
  if (!isLocalDeployment(deployment))
    return (
      <Card title="Create a market" testId="create-market">
        <p className="hint">Creating markets is offered on the local chain only.</p>
      </Card>
    )
  const markets = deployment.markets
  const spec = MARKET_KINDS[input.kind]
  const check = checkCreateMarket(input, {
    tokenDecimals: token.decimals,
    tokenSymbol: token.symbol,
    balance,
  })
  const errors = check.ok ? {} : check.errors
  const shown = (f: CreateMarketField) => ((tried || touched.has(f)) && errors[f]) || null
  const deposit = check.ok ? check.draft.deposit : check.deposit
  const busy = sending || txBusy(approval) || txBusy(create)

  const edit = (f: CreateMarketField | null, patch: Partial<CreateMarketInput>) => {
    setInput((i) => ({ ...i, ...patch }))
    if (f) setTouched((t) => new Set(t).add(f))
  }
  const setOutcome = (n: number, label: string) =>
    edit('outcomes', { outcomes: input.outcomes.map((o, i) => (i === n ? label : o)) })

  const submit = async () => {
    setTried(true)
    if (!check.ok) return
    setSending(true)
    setApproval(TX_IDLE)
    setCreate(TX_IDLE)
    setCreated(null)
    try {
      const result = await runCreateMarket({
        draft: check.draft,
        markets,
        token,
        onApproval: setApproval,
        onCreate: setCreate,
      })
      if (result.ok) setCreated(result.market)
    } catch (err) {
      setCreate({ phase: 'failed', error: errorSentence(err) })
    } finally {
      setSending(false)
    }
  }

  const field = (f: CreateMarketField, label: string, control: ReactNode, hint?: string) => (
    <label className="mk-field" data-field={f}>
      <span>{label}</span>
      {control}
      {hint && <small className="muted">{hint}</small>}
      {shown(f) && (
        <small className="inline-error" data-testid={`create-error-${f}`}>
          {shown(f)}
        </small>
      )}
    </label>
  )
  const duration = (f: 'tradingFor' | 'settlementWithin', unitKey: 'tradingUnit' | 'settlementUnit') => (
    <span className="mk-duration">
      <input
        className="input"
        inputMode="decimal"
        value={input[f]}
        data-testid={`create-${f}`}
        onChange={(e) => edit(f, { [f]: e.target.value })}
      />
      <select
        className="select"
        value={input[unitKey]}
        data-testid={`create-${unitKey}`}
        onChange={(e) => edit(f, { [unitKey]: e.target.value as DurationUnit })}
      >
        {Object.keys(DURATION_UNITS).map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
    </span>
  )

  return (
    <Card title="Create a market" testId="create-market" aside={<MarketsStatus />} className="mk-create">
      <div className="mk-side" role="group" aria-label="Pricing">
        {MARKET_KIND_NAMES.map((k) => (
          <button
            key={k}
            type="button"
            className={`btn ${input.kind === k ? 'active' : ''}`}
            aria-pressed={input.kind === k}
            data-testid={`create-kind-${k}`}
            onClick={() => edit(null, { kind: k, liquidity: MARKET_KINDS[k].liquidity.defaultValue })}
          >
            {MARKET_KINDS[k].name}
          </button>
        ))}
      </div>
      {field(
        'question',
        'Question',
        <input
          className="input"
          value={input.question}
          placeholder="Will …?"
          data-testid="create-question"
          onChange={(e) => edit('question', { question: e.target.value })}
        />,
      )}
      <div className="mk-field" data-field="outcomes">
        <span>
          Outcomes ({FORM_MIN_OUTCOMES}–{FORM_MAX_OUTCOMES})
        </span>
        {input.outcomes.map((o, i) => (
          <span key={i} className="mk-outcome-input">
            <input
              className="input"
              value={o}
              aria-label={`Outcome ${i + 1}`}
              data-testid="create-outcome"
              onChange={(e) => setOutcome(i, e.target.value)}
            />
            <button
              type="button"
              className="btn btn-small"
              aria-label={`Remove outcome ${i + 1}`}
              disabled={input.outcomes.length <= FORM_MIN_OUTCOMES}
              onClick={() => edit('outcomes', { outcomes: input.outcomes.filter((_, j) => j !== i) })}
            >
              ×
            </button>
          </span>
        ))}
        <button
          type="button"
          className="btn btn-small"
          data-testid="create-add-outcome"
          disabled={input.outcomes.length >= FORM_MAX_OUTCOMES}
          onClick={() => edit('outcomes', { outcomes: [...input.outcomes, ''] })}
        >
          Add an outcome
        </button>
        {shown('outcomes') && (
          <small className="inline-error" data-testid="create-error-outcomes">
            {shown('outcomes')}
          </small>
        )}
      </div>
      <label className="mk-field">
        <span>Category</span>
        <select
          className="select"
          value={input.category}
          data-testid="create-category"
          onChange={(e) => edit(null, { category: e.target.value as MarketCategory })}
        >
          {MARKET_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label className="mk-field">
        <span>Resolution criteria</span>
        <textarea
          className="input"
          rows={2}
          value={input.resolutionCriteria}
          placeholder="How the oracle decides"
          data-testid="create-criteria"
          onChange={(e) => edit(null, { resolutionCriteria: e.target.value })}
        />
      </label>
      {field(
        'liquidity',
        spec.liquidity.field,
        <input
          className="input"
          inputMode="decimal"
          value={input.liquidity}
          data-testid="create-liquidity"
          onChange={(e) => edit('liquidity', { liquidity: e.target.value })}
        />,
        spec.liquidity.hint,
      )}
      {'chosen' in spec.deposit ? (
        field(
          'deposit',
          `Initial deposit (${token.symbol})`,
          <input
            className="input"
            inputMode="decimal"
            value={input.deposit}
            data-testid="create-deposit"
            onChange={(e) => edit('deposit', { deposit: e.target.value })}
          />,
          spec.deposit.hint,
        )
      ) : (
        <div className="mk-field" data-field="deposit">
          <span>Deposit</span>
          <span data-testid="create-lmsr-deposit">
            {deposit === null
              ? '—'
              : formatTokenAmount(deposit, token.decimals, { maxFractionDigits: 6, symbol: token.symbol })}
          </span>
          <small className="muted">{spec.deposit.hint}</small>
          {shown('deposit') && <small className="inline-error">{shown('deposit')}</small>}
        </div>
      )}
      {field(
        'fee',
        'Trading fee (%)',
        <input
          className="input"
          inputMode="decimal"
          value={input.fee}
          data-testid="create-fee"
          onChange={(e) => edit('fee', { fee: e.target.value })}
        />,
      )}
      {field('tradingFor', 'Trading stays open for', duration('tradingFor', 'tradingUnit'))}
      {field(
        'settlementWithin',
        'Then the oracle settles within',
        duration('settlementWithin', 'settlementUnit'),
        'Past it, an unsettled market expires and every share liquidates at its last prices.',
      )}
      <div className="button-row">
        <button
          type="button"
          className="btn btn-primary"
          data-testid="create-submit"
          disabled={busy}
          onClick={() => void submit()}
        >
          {busy ? 'Creating…' : 'Create market'}
        </button>
      </div>
      {tried && !check.ok && (
        <p className="hint mk-problem" data-testid="create-problem">
          Fix the fields marked above; nothing was sent.
        </p>
      )}
      <TxStatus state={approval} testId="create-approval-status" what="Approval" />
      <TxStatus state={create} testId="create-status" what="Create" />
      {created && (
        <p className="mk-received" data-testid="create-done" data-address={created}>
          Market created: <a href={marketHref(created)}>open it</a> — it is in the list now.
        </p>
      )}
    </Card>
  )
}
