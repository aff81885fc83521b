// Seeded random weights and sequences for the float64 trainer's tests.
import { SeededRandom } from '../../src/core/tasks/seeded-random.ts'
import type { ModelConfig } from '../../src/compute/model/config.ts'
import { zeroFlatParams, type FlatParams } from '../../src/compute/model/f64/flat-params.ts'

/** Weights large enough that attention and the MLP are far from linear; norm gains around 1. */
export function randomFlatParams(config: ModelConfig, key: string): FlatParams {
  const flat = zeroFlatParams(config)
  const random = new SeededRandom(key)
  const uniform = () => random.nextUint32() / 2 ** 32 - 0.5
  let offset = 0
  for (const spec of flat.specs) {
    const n = spec.shape.reduce((a, b) => a * b, 1)
    for (let i = 0; i < n; i++)
      flat.data[offset + i] = spec.kind === 'norm' ? 1 + 0.6 * uniform() : 0.8 * uniform()
    offset += n
  }
  return flat
}

export function randomIds(config: ModelConfig, length: number, key: string): Int32Array {
  const random = new SeededRandom(key)
  return Int32Array.from({ length }, () => random.int(0, config.vocabSize - 1))
}
