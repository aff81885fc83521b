import { describe, expect, it } from 'vitest'
import {
  formatByteRate,
  formatBytes,
  formatCapabilities,
  formatCompact,
  formatDuration,
  formatRate,
  formatRelativeTime,
  formatScore,
  shortId,
} from './format.ts'

describe('formatBytes', () => {
  it('uses binary units with one decimal below 100', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1023)).toBe('1023 B')
    expect(formatBytes(1024)).toBe('1.0 KiB')
    expect(formatBytes(1536)).toBe('1.5 KiB')
    expect(formatBytes(5 * 2 ** 20)).toBe('5.0 MiB')
    expect(formatBytes(150 * 2 ** 30)).toBe('150 GiB')
    expect(formatBytes(NaN)).toBe('—')
  })
  it('formats rates', () => {
    expect(formatByteRate(2048)).toBe('2.0 KiB/s')
    expect(formatByteRate(null)).toBe('—')
    expect(formatRate(0)).toBe('0/s')
    expect(formatRate(0.5)).toBe('0.5/s')
    expect(formatRate(12.34)).toBe('12.3/s')
    expect(formatRate(null)).toBe('—')
  })
  it('compacts large counts', () => {
    expect(formatCompact(999)).toBe('999')
    expect(formatCompact(1234)).toBe('1.2k')
    expect(formatCompact(45_678)).toBe('46k')
    expect(formatCompact(2_500_000)).toBe('2.5M')
    expect(formatCompact(0.256)).toBe('0.26')
  })
})

describe('formatRelativeTime', () => {
  const now = 1_700_000_000_000
  it('says how long ago', () => {
    expect(formatRelativeTime(now - 200, now)).toBe('just now')
    expect(formatRelativeTime(now - 2_000, now)).toBe('2 s ago')
    expect(formatRelativeTime(now - 59_999, now)).toBe('59 s ago')
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5 min ago')
    expect(formatRelativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago')
    expect(formatRelativeTime(now - 3 * 86_400_000, now)).toBe('3 d ago')
  })
  it('handles never and clock skew', () => {
    expect(formatRelativeTime(null, now)).toBe('—')
    expect(formatRelativeTime(0, now)).toBe('—')
    expect(formatRelativeTime(now + 5_000, now)).toBe('just now')
  })
})

describe('formatDuration, shortId, formatScore', () => {
  it('formats durations', () => {
    expect(formatDuration(5_000)).toBe('5 s')
    expect(formatDuration(60_000)).toBe('1 min')
    expect(formatDuration(90_000)).toBe('1 min 30 s')
    expect(formatDuration(7_200_000)).toBe('2 h')
    expect(formatDuration(250)).toBe('250 ms')
  })
  it('keeps the distinctive tail of a peer id', () => {
    expect(shortId('12D3KooWQmXy9nPq7aBcDeF')).toBe('…aBcDeF')
    expect(shortId('short')).toBe('short')
  })
  it('signs scores', () => {
    expect(formatScore(12.54)).toBe('+12.5')
    expect(formatScore(-3)).toBe('-3')
    expect(formatScore(0.01)).toBe('0')
  })
})

describe('formatCapabilities', () => {
  it('describes the GPU or its absence', () => {
    const gpu = {
      vendor: 'nvidia',
      architecture: 'hopper',
      device: '',
      description: '',
      isFallbackAdapter: false,
    }
    expect(formatCapabilities({ webgpu: gpu, cores: 16, memoryGb: 8 })).toEqual({
      gpu: 'nvidia hopper',
      device: '16 cores · 8 GiB',
    })
    expect(formatCapabilities({ webgpu: null, cores: 4, memoryGb: null })).toEqual({
      gpu: 'no WebGPU',
      device: '4 cores',
    })
    expect(
      formatCapabilities({
        webgpu: { ...gpu, description: 'SwiftShader', isFallbackAdapter: true },
        cores: 2,
        memoryGb: null,
      }).gpu,
    ).toBe('SwiftShader (software)')
    expect(formatCapabilities(undefined).gpu).toBe('—')
  })
})
