import { defineConfig } from '@playwright/test'

// One worker: the specs start several Chromium contexts each, and timings flake when they compete for
// the 2 cores of a CI machine. Each spec starts its own relay + app server on its own ports.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results',
})
