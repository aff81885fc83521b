import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildIsStale } from './app-build.ts'

let root: string
const dist = (): string => join(root, 'dist')
const at = (path: string, seconds: number): Promise<void> => utimes(join(root, path), seconds, seconds)

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'app-build-'))
  await mkdir(join(root, 'src', 'deep'), { recursive: true })
  await mkdir(dist())
  await writeFile(join(root, 'index.html'), '')
  await writeFile(join(root, 'src', 'deep', 'a.ts'), '')
  await writeFile(join(root, 'src', 'deep', 'a.test.ts'), '')
  await at('index.html', 1000)
  await at('src/deep/a.ts', 1000)
  await at('src/deep/a.test.ts', 1000)
})
afterEach(() => rm(root, { recursive: true, force: true }))

describe('buildIsStale', () => {
  it('is stale without a build', async () => {
    expect(await buildIsStale(root, dist())).toBe(true)
  })

  it('is fresh when the build is newer than every input', async () => {
    await writeFile(join(dist(), 'index.html'), '')
    await at('dist/index.html', 2000)
    expect(await buildIsStale(root, dist())).toBe(false)
  })

  it('is stale when a nested source changed after the build, but not for a test file', async () => {
    await writeFile(join(dist(), 'index.html'), '')
    await at('dist/index.html', 2000)
    await at('src/deep/a.test.ts', 3000)
    expect(await buildIsStale(root, dist())).toBe(false)
    await at('src/deep/a.ts', 3000)
    expect(await buildIsStale(root, dist())).toBe(true)
  })
})
