// A gradient-pool worker (gradient-pool.ts): reads the weights from the shared buffer and computes the
// gradient of each sequence it is sent.
import { parentPort, workerData } from 'node:worker_threads'
import type { ModelConfig } from '../config.ts'
import { parameterLayout } from '../layout.ts'
import { flatViews, type FlatParams } from '../f64/flat-params.ts'
import { sequenceGradient, type SftSequence } from '../f64/sft-step.ts'

export interface GradientWorkerData {
  readonly config: ModelConfig
  readonly weights: SharedArrayBuffer
}

export interface GradientJob {
  readonly job: number
  readonly scale: number
  readonly sequences: readonly (SftSequence & { readonly index: number })[]
}

export interface GradientReply {
  readonly job: number
  readonly parts: readonly { readonly index: number; readonly loss: number; readonly grads: Float64Array }[]
}

if (parentPort) {
  const port = parentPort
  const { config, weights } = workerData as GradientWorkerData
  const specs = parameterLayout(config)
  const data = new Float64Array(weights)
  const model: FlatParams = { config, specs, data, views: flatViews(specs, data) }
  port.on('message', (job: GradientJob) => {
    const parts = job.sequences.map(({ index, ids, lossFrom }) => ({
      index,
      ...sequenceGradient(model, { ids, lossFrom }, job.scale),
    }))
    const reply: GradientReply = { job: job.job, parts }
    port.postMessage(
      reply,
      parts.map((part) => part.grads.buffer as ArrayBuffer),
    )
  })
}
