import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SHADER_NAMES } from './dispatch.ts'
import { readShaders } from './node-shaders.ts'

describe('shader sources', () => {
  it('SHADER_NAMES lists exactly the files under shaders/, so every kernel reaches Node and the kernels hash', () => {
    const files = readdirSync(new URL('../../../../shaders/', import.meta.url))
      .filter((f) => f.endsWith('.wgsl'))
      .map((f) => f.slice(0, -'.wgsl'.length))
    expect([...SHADER_NAMES].sort()).toEqual(files.sort())
    const shaders = readShaders()
    for (const name of SHADER_NAMES) expect(shaders[name]).toContain('fn ')
  })
})
