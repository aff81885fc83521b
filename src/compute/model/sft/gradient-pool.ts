// Sequence gradients of training batches computed by Node worker threads (npm run model:train). The
// weights reach the workers through one SharedArrayBuffer per step; each worker sends back its
// sequences' gradients (transferred, not copied) and they add in batch order (sumSequenceGradients), so
// a step is the same bits as on one thread, whatever the number of workers.
import { Worker } from 'node:worker_threads'
import {
  answerTokens,
  sumSequenceGradients,
  type BatchGradient,
  type SequenceGradient,
  type SftSequence,
} from '../f64/sft-step.ts'
import type { FlatParams } from '../f64/flat-params.ts'
import type { GradientJob, GradientReply, GradientWorkerData } from './gradient-worker.ts'

/** The worker runs TypeScript: it loads the same tsx hook and polyfills as `node --import` does here. */
const REGISTER = new URL('../../../polyfills/register.js', import.meta.url).href
const WORKER = new URL('./gradient-worker.ts', import.meta.url)
/**
 * A worker's young generation, MB. A sequence's tape allocates a few MB; with the worker default the
 * scavenger ran so often that a worker took twice the main thread's time for the same sequences.
 */
const YOUNG_GENERATION_MB = 64

/**
 * Which worker computes each sequence: longest first, each to the worker with the fewest tokens so far
 * (the lower index on a tie). Only the time depends on this; the sum is in batch order anyway.
 */
export function assignSequences(lengths: readonly number[], workers: number): number[] {
  const load = new Array<number>(workers).fill(0)
  const owner = new Array<number>(lengths.length)
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]! || a - b)
  for (const i of order) {
    const w = load.indexOf(Math.min(...load))
    owner[i] = w
    load[w] = load[w]! + lengths[i]!
  }
  return owner
}

export interface GradientPool {
  /** The gradient batchGradient(model, batch) gives, for the model's current weights. */
  batchGradient(batch: readonly SftSequence[]): Promise<BatchGradient>
  close(): Promise<void>
}

export function gradientPool(model: FlatParams, workers: number): GradientPool {
  if (!Number.isInteger(workers) || workers < 1)
    throw new RangeError(`a gradient pool needs a whole number of workers (got ${workers})`)
  const shared = new Float64Array(new SharedArrayBuffer(model.data.byteLength))
  const workerData: GradientWorkerData = { config: model.config, weights: shared.buffer as SharedArrayBuffer }
  const threads = Array.from(
    { length: workers },
    () =>
      new Worker(WORKER, {
        workerData,
        execArgv: ['--import', REGISTER],
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      }),
  )
  let nextJob = 0
  // A worker that failed is gone: later steps fail at once with the first reason instead of waiting.
  let broken: Error | undefined

  function run(thread: Worker, job: GradientJob): Promise<GradientReply> {
    return new Promise((resolve, reject) => {
      const done = () => {
        thread.off('message', onMessage)
        thread.off('error', onError)
        thread.off('exit', onExit)
      }
      const onMessage = (reply: GradientReply) => {
        if (reply.job !== job.job) return
        done()
        resolve(reply)
      }
      const fail = (error: Error) => {
        done()
        broken ??= error
        reject(error)
      }
      const onError = (error: Error) => fail(new Error(`a gradient worker failed: ${error.message}`))
      const onExit = (code: number) =>
        fail(new Error(`a gradient worker exited (code ${code}) before answering`))
      thread.on('message', onMessage)
      thread.once('error', onError)
      thread.once('exit', onExit)
      thread.postMessage(job)
    })
  }

  return {
    async batchGradient(batch) {
      if (broken) throw broken
      const tokens = answerTokens(batch)
      shared.set(model.data)
      const job = nextJob++
      const owner = assignSequences(
        batch.map((seq) => seq.ids.length),
        workers,
      )
      const replies = await Promise.all(
        threads.map((thread, w) =>
          run(thread, {
            job,
            scale: 1 / tokens,
            sequences: batch.flatMap((seq, index) => (owner[index] === w ? [{ index, ...seq }] : [])),
          }),
        ),
      )
      const parts: SequenceGradient[] = []
      for (const reply of replies)
        for (const part of reply.parts) parts[part.index] = { loss: part.loss, grads: part.grads }
      return sumSequenceGradients(parts, tokens)
    },
    async close() {
      await Promise.all(threads.map((thread) => thread.terminate()))
    },
  }
}
