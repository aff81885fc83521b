import { SHADER_NAMES, type Shaders } from './dispatch.ts'

/** Every shaders/*.wgsl source by file name, inlined by Vite at build time (pages and workers). */
export const BUNDLED_SHADER_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>('../../../../shaders/*.wgsl', { query: '?raw', import: 'default', eager: true }),
  ).map(([path, source]) => [path.slice(path.lastIndexOf('/') + 1), source]),
)

/** The kernels' sources by shader name, from the bundle. */
export const BUNDLED_SHADERS: Shaders = Object.fromEntries(
  SHADER_NAMES.map((name) => {
    const source = BUNDLED_SHADER_FILES[`${name}.wgsl`]
    if (source === undefined) throw new Error(`shaders/${name}.wgsl is missing from the bundle`)
    return [name, source]
  }),
) as Record<(typeof SHADER_NAMES)[number], string>
