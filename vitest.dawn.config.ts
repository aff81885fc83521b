// `npm run test:dawn`: the checks that run WGSL under Node Dawn (the `webgpu` package). Not part of
// `npm test`: Dawn 0.6.2 on SwiftShader crashes in native code too often to gate on (see the tests).
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.dawn.test.ts'],
    setupFiles: ['./src/polyfills/promise-with-resolvers.ts'],
    pool: 'forks',
  },
})
