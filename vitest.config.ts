import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'bench/**/*.test.ts'],
    setupFiles: ['./src/polyfills/promise-with-resolvers.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
})
