// RFC 8785 (JCS) canonical JSON for the values this project hashes: objects with sorted keys, no
// whitespace, ECMAScript number and string serialisation. Non-JSON values are refused so a hash never
// silently covers `undefined` or NaN.
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not valid JSON`)
    return JSON.stringify(value)
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    // JCS sorts keys by UTF-16 code units, which is what the default sort compares.
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  throw new TypeError(`canonicalJson: ${typeof value} is not valid JSON`)
}
