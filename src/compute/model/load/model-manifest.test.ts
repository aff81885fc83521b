import { describe, expect, it } from 'vitest'
import { parseManifest } from './model-manifest.ts'

const hash = 'ab'.repeat(32)
const good = {
  format: 'tabswarm-model-v1',
  name: 'tabswarm-tiny',
  promptTemplate: '{prompt}\n',
  files: { 'config.json': hash },
  weightsHash: hash,
  trainable: true,
}
const parse = (value: unknown) => parseManifest(new TextEncoder().encode(JSON.stringify(value)))

describe('tabswarm.json', () => {
  it('reads a valid manifest', () => {
    expect(parse(good)).toEqual(good)
  })

  it('names what is wrong', () => {
    expect(() => parse({ ...good, format: 'v0' })).toThrow(
      'tabswarm.json: format must be "tabswarm-model-v1" (got "v0")',
    )
    expect(() => parse({ ...good, promptTemplate: 'no slot' })).toThrow(/promptTemplate must .*\{prompt\}/)
    expect(() => parse({ ...good, files: { 'onnx/model.onnx': 'xyz' } })).toThrow(
      'tabswarm.json: files["onnx/model.onnx"] is not a hex SHA-256',
    )
    expect(() => parse({ ...good, weightsHash: hash.toUpperCase() })).toThrow(/weightsHash/)
    expect(() => parse({ ...good, trainable: 'yes' })).toThrow(/trainable/)
  })
})
