// New weights for a loaded tabswarm model: a tabswarm-q1 checkpoint (the trainer's output) becomes the
// ONNX decoder the solver runs. The checkpoint's config must equal the loaded one, or the tokenizer
// and the cache shapes would no longer fit the weights.
import { readCheckpoint, checkpointHash } from '../../compute/model/checkpoint.ts'
import type { ModelConfig } from '../../compute/model/config.ts'
import { exportOnnx } from '../../compute/model/onnx/export-onnx.ts'
import { toFloat } from '../../compute/kernels/ref/tensor.ts'

export function onnxFromCheckpoint(
  loaded: ModelConfig,
  bytes: Uint8Array,
): { onnx: Uint8Array; weightsHash: string } {
  const { config, params } = readCheckpoint(bytes)
  const differing = (Object.keys(loaded) as (keyof ModelConfig)[]).filter(
    (key) => config[key] !== loaded[key],
  )
  if (differing.length > 0)
    throw new RangeError(
      `the checkpoint is for another model config (${differing.map((key) => `${key} ${config[key]} ≠ ${loaded[key]}`).join(', ')})`,
    )
  // int·2^exp, exactly, as float64: the exporter rounds once, to float32
  const weights = new Map([...params].map(([name, tensor]) => [name, toFloat(tensor)]))
  return { onnx: exportOnnx(config, weights), weightsHash: checkpointHash(bytes) }
}
