// A numeric setting as a text field: what the person types stays as typed; a valid value is used at
// once, an invalid one is not used and is reported to the form (onError), which names it below its
// row so the fields stay aligned.
import { useState } from 'react'
import { parseSetting, SETTING_LIMITS, type NumericSetting } from './setting-limits.ts'

export function NumberField({
  setting,
  value,
  disabled,
  onValue,
  onError,
}: {
  setting: NumericSetting
  value: number
  disabled?: boolean
  onValue: (value: number) => void
  /** the sentence saying why the typed text is not used; null once it is valid again */
  onError: (error: string | null) => void
}) {
  const [draft, setDraft] = useState<string | null>(null)
  const parsed = draft === null ? null : parseSetting(setting, draft)
  const invalid = parsed !== null && 'error' in parsed
  // a valid draft that no longer matches was replaced from outside (Next task moves the seed)
  const shown = draft !== null && (invalid || Number(draft) === value) ? draft : String(value)
  return (
    <label className="field solve-number">
      <span>{SETTING_LIMITS[setting].label}</span>
      <input
        className={`input ${invalid ? 'input-bad' : ''}`}
        inputMode="decimal"
        value={shown}
        disabled={disabled}
        aria-invalid={invalid}
        data-testid={`setting-${setting}`}
        onChange={(e) => {
          const text = e.target.value
          const next = parseSetting(setting, text)
          setDraft(text)
          if ('value' in next) onValue(next.value)
          onError('error' in next ? next.error : null)
        }}
        onBlur={() => !invalid && setDraft(null)}
      />
    </label>
  )
}
