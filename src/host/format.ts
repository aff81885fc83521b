// Number, size, time and id formatting for the dashboards.
import type { Capabilities } from '../core/protocol/presence.ts'

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const

/** 0 → "0 B", 1536 → "1.5 KiB", 5 * 2**20 → "5.0 MiB"; three significant digits at most above 1 KiB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—'
  const sign = bytes < 0 ? '-' : ''
  let value = Math.abs(bytes)
  let unit = 0
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024
    unit++
  }
  if (unit === 0) return `${sign}${Math.round(value)} B`
  const digits = value >= 100 ? 0 : 1
  return `${sign}${value.toFixed(digits)} ${BYTE_UNITS[unit]}`
}

/** A per-second rate of bytes: "1.5 KiB/s". */
export function formatByteRate(bytesPerSecond: number | null): string {
  return bytesPerSecond === null ? '—' : `${formatBytes(bytesPerSecond)}/s`
}

/** A per-second rate of messages: "0", "0.5", "12", "1.2k" followed by "/s". */
export function formatRate(perSecond: number | null): string {
  if (perSecond === null || !Number.isFinite(perSecond)) return '—'
  return `${formatCompact(perSecond)}/s`
}

/** 0.25 → "0.25", 12.3 → "12.3", 999 → "999", 1234 → "1.2k", 2_500_000 → "2.5M". */
export function formatCompact(n: number): string {
  if (!Number.isFinite(n)) return '—'
  const abs = Math.abs(n)
  if (abs >= 1e6) return `${trim(n / 1e6, 1)}M`
  if (abs >= 1e4) return `${Math.round(n / 1e3)}k`
  if (abs >= 1e3) return `${trim(n / 1e3, 1)}k`
  if (abs >= 100 || Number.isInteger(n)) return String(Math.round(n))
  if (abs >= 1) return trim(n, 1)
  return trim(n, 2)
}

const trim = (n: number, digits: number): string => String(Number(n.toFixed(digits)))

/** "just now", "2 s ago", "5 min ago", "3 h ago", "2 d ago"; "—" when never. */
export function formatRelativeTime(then: number | null, now: number): string {
  if (then === null || !Number.isFinite(then) || then <= 0) return '—'
  const seconds = Math.floor((now - then) / 1000)
  if (seconds < 1) return 'just now'
  if (seconds < 60) return `${seconds} s ago`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return `${hours} h ago`
  return `${Math.floor(hours / 24)} d ago`
}

/** 5000 → "5 s", 60000 → "1 min", 90000 → "1 min 30 s", 7_200_000 → "2 h". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  const total = Math.round(ms / 1000)
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const parts: string[] = []
  if (h) parts.push(`${h} h`)
  if (m) parts.push(`${m} min`)
  if (s || parts.length === 0) parts.push(`${s} s`)
  return parts.join(' ')
}

/** The distinctive tail of a peer id (they all start with "12D3KooW"): "…x7Kq2m". */
export function shortId(id: string): string {
  return id.length <= 10 ? id : `…${id.slice(-6)}`
}

/** A gossipsub score with a sign and one decimal at most: "+12.5", "0", "-3". */
export function formatScore(score: number): string {
  if (!Number.isFinite(score)) return '—'
  const rounded = Number(score.toFixed(1))
  if (rounded === 0) return '0'
  return rounded > 0 ? `+${rounded}` : String(rounded)
}

/** A peer's device for a table cell: GPU adapter (or "no WebGPU"), cores and memory. */
export function formatCapabilities(c: Capabilities | undefined): { gpu: string; device: string } {
  if (!c) return { gpu: '—', device: '' }
  const w = c.webgpu
  const gpu = w
    ? (w.description || [w.vendor, w.architecture].filter(Boolean).join(' ') || 'WebGPU') +
      (w.isFallbackAdapter ? ' (software)' : '')
    : 'no WebGPU'
  const device = [`${c.cores} cores`, c.memoryGb ? `${c.memoryGb} GiB` : ''].filter(Boolean).join(' · ')
  return { gpu, device }
}
