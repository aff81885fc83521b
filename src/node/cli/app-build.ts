// Whether the production build in dist/ is out of date, and building it with Vite's API, for `npm start`.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** What goes into the bundle; a change to any of these makes dist/ stale. */
const BUILD_INPUTS = [
  'index.html',
  'vite.config.ts',
  'package.json',
  'tsconfig.json',
  'src',
  'workers',
  'shaders',
  'public',
]

/** Tests never reach the bundle, so editing them does not call for a build. */
const isTestFile = (name: string): boolean => /\.test\.tsx?$/.test(name)

/** The newest modification time (ms) of the files at or under `path`; 0 when it does not exist. */
async function newestMtime(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined)
  if (info === undefined) return 0
  if (!info.isDirectory()) return isTestFile(path) ? 0 : info.mtimeMs
  const entries = await readdir(path)
  const times = await Promise.all(entries.map((entry) => newestMtime(join(path, entry))))
  return Math.max(0, ...times)
}

/** True when `dist/index.html` is missing or older than any build input under `projectRoot`. */
export async function buildIsStale(projectRoot: string, dist: string): Promise<boolean> {
  // Vite writes index.html last, so its time is when the build finished.
  const built = await stat(join(dist, 'index.html')).then(
    (s) => s.mtimeMs,
    () => undefined,
  )
  if (built === undefined) return true
  const inputs = await Promise.all(BUILD_INPUTS.map((input) => newestMtime(join(projectRoot, input))))
  return Math.max(...inputs) > built
}

export class BuildError extends Error {
  override name = 'BuildError'
}

/** `vite build` into `dist`, with vite.config.ts from `projectRoot`. */
export async function buildApp(projectRoot: string, dist: string): Promise<void> {
  // Imported here: starting with a fresh build should not pay for loading Vite.
  const { build } = await import('vite')
  try {
    await build({ root: projectRoot, logLevel: 'warn', build: { outDir: dist } })
  } catch (err) {
    throw new BuildError((err as Error).message)
  }
}

/** Builds `dist` first when it is stale: what a bench that serves the app as `npm start` does. */
export async function buildWhenStale(projectRoot: string, dist: string): Promise<void> {
  if (!(await buildIsStale(projectRoot, dist))) return
  console.log('building the app (vite build)…')
  await buildApp(projectRoot, dist)
}
