/// <reference types="@webgpu/types" />
import { LOSS_EXP } from '../ref/cross-entropy.ts'
import { expForMagnitude, magnitude } from '../ref/elementwise.ts'
import { LOG2E_Q30 } from '../ref/exp.ts'
import { bitLength, ceilLog2, divRne, mulRne } from '../ref/rounding.ts'
import { PROB_EXP, type SoftmaxOptions } from '../ref/softmax.ts'
import { assertShape, maxAbs, qtensor, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'

export interface SoftmaxKernel {
  /** The twin's softmax, logSoftmax and tokenLogProbs: same contracts, same bits. */
  softmax(x: QTensor, options?: SoftmaxOptions): Promise<QTensor>
  logSoftmax(x: QTensor, outExp: number, options?: SoftmaxOptions): Promise<QTensor>
  tokenLogProbs(logits: QTensor, targets: Int32Array, outExp: number): Promise<QTensor>
  /** The twin's tokenLogProbBackward, crossEntropy and crossEntropyBackward. */
  tokenLogProbBackward(logits: QTensor, targets: Int32Array, dLogProbs: QTensor): Promise<QTensor>
  crossEntropy(logits: QTensor, targets: Int32Array): Promise<QTensor>
  crossEntropyBackward(logits: QTensor, targets: Int32Array): Promise<QTensor>
  /** The twin's softmaxBackward (two passes; the output exponent comes from the first pass's maxima). */
  softmaxBackward(p: QTensor, dp: QTensor): Promise<QTensor>
}

const enum Op {
  Softmax = 0,
  LogSoftmax = 1,
  LogProb = 2,
  LogProbBackward = 3,
  MeanNll = 4,
  BackwardU = 5,
  BackwardDx = 6,
}

function checkTargets(logits: QTensor, targets: Int32Array): [number, number] {
  const [t, v] = rows2(logits)
  if (targets.length !== t)
    throw new RangeError(`log-prob gather needs logits [T, V] and T targets, got ${targets.length} for ${t}`)
  for (const id of targets)
    if (id < 0 || id >= v) throw new RangeError(`target token ${id} outside vocabulary of ${v}`)
  return [t, v]
}

function rows2(x: QTensor): [number, number] {
  if (x.shape.length !== 2)
    throw new RangeError(`softmax input must be 2-D [rows, cols], got [${x.shape.join(', ')}]`)
  return [x.shape[0]!, x.shape[1]!]
}

/** Host for shaders/softmax.wgsl (with shaders/fixed.wgsl): one invocation per row. */
export function createSoftmaxKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): SoftmaxKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'fixed', 'softmax'), { WG_X: wg })
  interface Extra {
    readonly targets?: Int32Array
    readonly g?: Int32Array
    readonly shift?: number
  }
  const run = async (op: Op, x: QTensor, outExp: number, options: SoftmaxOptions, extra: Extra = {}) => {
    const [r, n] = rows2(x)
    const valid = Int32Array.from({ length: r }, (_, i) => options.validCols?.(i) ?? n)
    const log2e = options.scaleQ30 === undefined ? LOG2E_Q30 : mulRne(LOG2E_Q30, options.scaleQ30, 30)
    const w = Math.max(Math.min(x.exp, PROB_EXP), x.exp - 20)
    const perRow = op === Op.LogProb
    const [out] = await dispatch(device, pipeline, {
      params: [op, r, n, x.exp, log2e, outExp, w, options.scaleQ30 ?? 2 ** 30, extra.shift ?? 0],
      inputs: [x.data, valid, extra.targets ?? new Int32Array(1), extra.g ?? new Int32Array(1)],
      outputs: [perRow ? r : r * n],
      groups: grid1D(r, wg),
    })
    return qtensor(perRow ? [r] : [r, n], outExp, out)
  }
  const tokenLogProbs = (logits: QTensor, targets: Int32Array, outExp: number) => {
    checkTargets(logits, targets)
    return run(Op.LogProb, logits, outExp, {}, { targets })
  }
  const tokenLogProbBackward = (logits: QTensor, targets: Int32Array, dLogProbs: QTensor) => {
    const [t] = checkTargets(logits, targets)
    assertShape(dLogProbs, [t], 'log-prob gradient')
    const e = expForMagnitude(magnitude(dLogProbs))
    return run(
      Op.LogProbBackward,
      logits,
      e,
      {},
      { targets, g: dLogProbs.data, shift: 30 + e - dLogProbs.exp },
    )
  }
  return {
    softmax: (x, options = {}) => run(Op.Softmax, x, PROB_EXP, options),
    logSoftmax: (x, outExp, options = {}) => run(Op.LogSoftmax, x, outExp, options),
    tokenLogProbs,
    tokenLogProbBackward,
    async crossEntropy(logits, targets) {
      const lp = await tokenLogProbs(logits, targets, LOSS_EXP)
      if (targets.length === 0) throw new RangeError('crossEntropy: no targets')
      // one invocation sums the log-probs in order and divides once
      const [out] = await dispatch(device, pipeline, {
        params: [Op.MeanNll, targets.length, 1, LOSS_EXP, 0, LOSS_EXP, 0, 0, 0],
        inputs: [lp.data, new Int32Array(1), new Int32Array(1), new Int32Array(1)],
        outputs: [1],
        groups: [1, 1],
      })
      return qtensor([1], LOSS_EXP, out)
    },
    async softmaxBackward(p, dp) {
      const [r, n] = rows2(p)
      assertShape(dp, p.shape, 'softmax dp')
      const guard = 21 - ceilLog2(Math.max(n, 1))
      if (guard < 0)
        throw new RangeError(`softmax backward: rows of ${n} exceed the 2^21 the exact dot holds`)
      const ex = expForMagnitude(magnitude(dp) + 1) // |dp − dot| ≤ 2·max|dp|
      const none = new Int32Array(1)
      const pass = async (op: Op, g: Int32Array, shift: number) => {
        const [out] = await dispatch(device, pipeline, {
          params: [op, r, n, p.exp, 0, 0, guard, 0, shift],
          inputs: [p.data, none, none, g],
          outputs: [r * n],
          groups: grid1D(r, wg),
        })
        return out!
      }
      const u = await pass(Op.BackwardU, dp.data, ex - dp.exp + guard)
      const e = expForMagnitude(bitLength(maxAbs(u)) + ex)
      return qtensor([r, n], e, await pass(Op.BackwardDx, u, 30 + e - ex))
    },
    crossEntropyBackward(logits, targets) {
      const t = targets.length
      const k = ceilLog2(Math.max(t, 1))
      // −2^30/T at exponent −30 − k, a host scalar exactly as the twin makes it
      const g = divRne(-(2 ** 30), t, k)
      return tokenLogProbBackward(logits, targets, qtensor([t], -30 - k, new Int32Array(t).fill(g)))
    },
  }
}
