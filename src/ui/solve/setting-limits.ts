// The numeric task and sampling settings a person types, with their limits: a value outside them gets
// a sentence that names the setting and the range, and is not used.
import type { TaskSettings } from '../../host/stores/solver-store.ts'

export type NumericSetting = 'seed' | 'samples' | 'temperature' | 'topK' | 'topP' | 'maxTokens'

interface Limit {
  readonly label: string
  readonly min: number
  readonly max: number
  readonly integer: boolean
}

export const SETTING_LIMITS: Readonly<Record<NumericSetting, Limit>> = {
  seed: { label: 'seed', min: 0, max: 2 ** 32 - 1, integer: true },
  /** G: one batch in the worker; 16 keeps a tab's memory and the streaming view small */
  samples: { label: 'samples G', min: 1, max: 16, integer: true },
  temperature: { label: 'temperature', min: 0, max: 2, integer: false },
  topK: { label: 'top-k', min: 0, max: 1000, integer: true },
  topP: { label: 'top-p', min: 0.01, max: 1, integer: false },
  /** the reward's length term and the shipped model's context both stay far above this */
  maxTokens: { label: 'max tokens', min: 1, max: 512, integer: true },
}

/** The value of `text` for `key`, or a sentence saying why it cannot be used. */
export function parseSetting(
  key: NumericSetting,
  text: string,
): { value: TaskSettings[NumericSetting] } | { error: string } {
  const { label, min, max, integer } = SETTING_LIMITS[key]
  const value = Number(text.trim())
  if (text.trim() === '' || !Number.isFinite(value)) return { error: `${label} must be a number` }
  if (integer && !Number.isInteger(value)) return { error: `${label} must be a whole number` }
  if (value < min || value > max) return { error: `${label} must be between ${min} and ${max}` }
  return { value }
}
