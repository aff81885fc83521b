import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test-support/**/*.test.ts',
      'workers/**/*.test.ts',
      'bench/**/*.test.ts',
      'e2e/**/*.test.ts',
    ],
    // opt-in checks that need a native WebGPU in Node (npm run test:dawn; vitest.dawn.config.ts)
    exclude: ['**/node_modules/**', '**/*.dawn.test.ts'],
    setupFiles: ['./src/polyfills/promise-with-resolvers.ts'],
    testTimeout: 20_000,
    pool: 'forks',
  },
})
