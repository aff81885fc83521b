// The solver issue's quality window, checked on the shipped tabswarm-tiny: greedy pass@1 on all 500
// held-out seeds per family and difficulty (d1–2 combined) at least 15 points above the best constant
// answer and under 70 %, for every family. About 75 s of float64 decoding on one core.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCheckpoint } from '../checkpoint.ts'
import { flatFromParams } from '../f64/flat-params.ts'
import { parseHfConfig } from '../load/hf-config.ts'
import { parseTokenizerJson } from '../tokenizer/bpe-tokenizer.ts'
import { combinedRows, evaluateHeldOut } from './held-out-eval.ts'
import { HELD_OUT_COUNT } from './sft-data.ts'
import { SOLVER_NAME } from './solver-folder.ts'

const folder = join(import.meta.dirname, '../../../../public/models', SOLVER_NAME)
const read = (path: string) => new Uint8Array(readFileSync(join(folder, path)))

describe('shipped tabswarm-tiny', () => {
  it('is in the quality window on every family', () => {
    const { config, params } = readCheckpoint(read('model.safetensors'))
    const { eosIds } = parseHfConfig(read('config.json'))
    const tokenizer = parseTokenizerJson(JSON.parse(new TextDecoder().decode(read('tokenizer.json'))))
    const rows = evaluateHeldOut(
      { config, views: flatFromParams(config, params).views, tokenizer, stopToken: eosIds[0]! },
      HELD_OUT_COUNT,
    )
    const verdicts = combinedRows(rows).map((r) => ({
      family: r.family,
      pass: Math.round(1000 * r.pass) / 10,
      constant: Math.round(1000 * r.constantRate) / 10,
      inWindow: r.inWindow,
    }))
    expect(verdicts.filter((v) => !v.inWindow)).toEqual([])
    expect(verdicts).toHaveLength(6)
  }, 600_000)
})
