// Runs a script against Node Dawn (the `webgpu` package) in a child Node process and returns the JSON
// it prints. Dawn finds a Vulkan driver only through environment variables read when a process
// starts, so the GPU side cannot run in the test process itself; where no driver is configured the
// child gets Chromium's SwiftShader. Dawn 0.6.2 on SwiftShader dies in native code (segfault, abort,
// hang) on a fraction of runs, more when the CPUs are busy: a child that dies before printing its
// result is rerun, and when none survives the crash is reported.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const SWIFTSHADER = '/usr/lib/chromium/vk_swiftshader_icd.json'

export type DawnOutcome<T> = { readonly result: T } | { readonly crashed: string }

export interface DawnChildOptions {
  readonly attempts: number
  readonly timeoutMs: number
}

/**
 * `script` is an ES module body run with tsx; it reads `input` from stdin and writes its result as JSON
 * to the file named by `process.env.DAWN_RESULT` (a file, not stdout: a long line on a pipe is cut
 * short when the child exits, and the child must exit or Dawn's threads keep it alive).
 */
export function runInDawn<T>(script: string, input: string, options: DawnChildOptions): DawnOutcome<T> {
  const folder = mkdtempSync(join(tmpdir(), 'dawn-'))
  const resultFile = join(folder, 'result.json')
  const env: NodeJS.ProcessEnv = { ...process.env, DAWN_RESULT: resultFile }
  if (!env.VK_DRIVER_FILES && !env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER)) {
    env.LD_LIBRARY_PATH = `/usr/lib/chromium${env.LD_LIBRARY_PATH ? `:${env.LD_LIBRARY_PATH}` : ''}`
    env.VK_DRIVER_FILES = SWIFTSHADER
  }
  let failure = ''
  try {
    for (let attempt = 0; attempt < options.attempts; attempt++) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        env,
        input,
        encoding: 'utf8',
        timeout: options.timeoutMs,
      })
      // Dawn may abort while tearing down its threads after the result is written: the file counts
      if (existsSync(resultFile))
        try {
          return { result: JSON.parse(readFileSync(resultFile, 'utf8')) as T }
        } catch {
          // a file cut short by a crash mid-write: counts as a crash
        }
      failure = `status ${run.status}, signal ${run.signal}: ${run.stderr.slice(-2000)}`
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  return {
    crashed: `Dawn died ${options.attempts} times in native code; last: ${failure.trim().split('\n').at(-1)}`,
  }
}

/** An import of a module of this folder (or below src/) by absolute URL, for a child script. */
export const moduleUrl = (relative: string): string => JSON.stringify(new URL(relative, import.meta.url).href)
