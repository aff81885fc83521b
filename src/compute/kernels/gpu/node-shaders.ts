import { readFileSync } from 'node:fs'
import { SHADER_NAMES, type ShaderName, type Shaders } from './dispatch.ts'

/** Every kernel source under shaders/, read from disk (Node; a page imports them with ?raw). */
export function readShaders(): Shaders {
  const entries = SHADER_NAMES.map((name): [ShaderName, string] => [
    name,
    readFileSync(new URL(`../../../../shaders/${name}.wgsl`, import.meta.url), 'utf8'),
  ])
  return Object.fromEntries(entries) as Shaders
}
