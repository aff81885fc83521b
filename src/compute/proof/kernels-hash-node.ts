import { readdirSync, readFileSync } from 'node:fs'
import { kernelsHashOf } from './kernels-hash.ts'

const SHADERS = new URL('../../../shaders/', import.meta.url)

/** kernelsHash of this checkout's shaders/*.wgsl, read from disk (Node: the CLI and tests). */
export function kernelsHashFromDisk(dir: URL = SHADERS): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.wgsl'))
  return kernelsHashOf(Object.fromEntries(files.map((f) => [f, readFileSync(new URL(f, dir), 'utf8')])))
}
