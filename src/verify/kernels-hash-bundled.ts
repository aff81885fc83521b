import { kernelsHashOf } from './kernels-hash.ts'

// Vite inlines every shader's source at build time, so a page's kernelsHash is fixed by the build.
const sources = import.meta.glob<string>('/shaders/*.wgsl', { query: '?raw', import: 'default', eager: true })

/** kernelsHash of the shaders this bundle was built with (pages and workers). */
export const BUNDLED_KERNELS_HASH = kernelsHashOf(
  Object.fromEntries(
    Object.entries(sources).map(([path, source]) => [path.slice(path.lastIndexOf('/') + 1), source]),
  ),
)
