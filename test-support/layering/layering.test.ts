// The import rule of ARCHITECTURE.md holds only while `npm run lint` can fail: these fixture trees, cruised
// with the project's own .dependency-cruiser.cjs, show that an upward import, React in the host and
// product code importing test-support are refused, and that a downward import passes.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const cli = fileURLToPath(
  new URL('../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url),
)
const config = fileURLToPath(new URL('../../.dependency-cruiser.cjs', import.meta.url))

/** Runs the lint's dependency check inside one fixture tree: its exit code and what it printed. */
async function cruise(fixture: string): Promise<{ code: number; out: string }> {
  const cwd = fileURLToPath(new URL(`./${fixture}/`, import.meta.url))
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [cli, '.', '--config', config, '--output-type', 'err'],
      { cwd },
    )
    return { code: 0, out: stdout + stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, out: e.stdout + e.stderr }
  }
}

describe('the import rule', () => {
  it('refuses a core module that imports the host', async () => {
    const { code, out } = await cruise('upward')
    expect(code).not.toBe(0)
    expect(out).toContain('core-imports-upward: src/core/round.ts → src/host/tab.ts')
  })

  it('refuses product code that imports test-support', async () => {
    const { code, out } = await cruise('fixture-in-product')
    expect(code).not.toBe(0)
    expect(out).toContain('product-imports-test-support: src/host/tab.ts → test-support/fixture.ts')
  })

  it('refuses React in the tab’s runtime (the host runs without it)', async () => {
    const { code, out } = await cruise('react-in-host')
    expect(code).not.toBe(0)
    expect(out).toMatch(/runtime-imports-react: src\/host\/tab\.ts → \S*node_modules\/react\/index\.js/)
  })

  it('lets the host import the core', async () => {
    const { code, out } = await cruise('downward')
    expect(out).toContain('no dependency violations found')
    expect(code).toBe(0)
  })
})
