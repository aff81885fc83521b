/// <reference types="@webgpu/types" />
import { causal, SCORE_EXP, type AttentionGrads, type AttentionShape } from '../ref/attention.ts'
import { matmulBoundExp } from '../ref/matmul.ts'
import { rsqrtFixed } from '../ref/rsqrt.ts'
import { qtensor, type QTensor } from '../ref/tensor.ts'
import { createPipeline, dispatch, grid1D, kernelSource, type Shaders, type Workgroup1D } from './dispatch.ts'
import { createElementwiseKernel } from './elementwise-kernel.ts'
import { createSoftmaxKernel } from './softmax-kernel.ts'

export interface AttentionKernel {
  /** The twin's attention (causal GQA forward, KV-cached query windows too): same contract, same bits. */
  forward(q: QTensor, k: QTensor, v: QTensor, shape: AttentionShape): Promise<QTensor>
  /** The twin's attentionBackward: same contract, same bits. */
  backward(q: QTensor, k: QTensor, v: QTensor, dOut: QTensor, shape: AttentionShape): Promise<AttentionGrads>
}

const enum Op {
  Narrow = 0,
  Scores = 1,
  Pv = 2,
  P15 = 3,
  Dp = 4,
  Dq = 5,
  Dkv = 6,
}

/** Exponent of P inside P·V and dV (src/compute/kernels/ref/attention.ts). */
const P15_EXP = -15

/**
 * Host for shaders/attention.wgsl: per-row narrowing shifts of q and k, the scores of every
 * (sequence, head, query) row, the softmax kernel's scaled causal probabilities, then P·V — the twin's
 * steps in the twin's order, one dispatch each. The backward recomputes the probabilities the same
 * way and chains dP, the softmax kernel's backward, the elementwise kernel's scale and narrowing, and
 * the dQ/dK/dV sums, each output exponent chosen from whole-tensor maxima as the twin chooses it.
 */
export function createAttentionKernel(device: GPUDevice, shaders: Shaders, wg: Workgroup1D): AttentionKernel {
  const pipeline = createPipeline(device, kernelSource(shaders, 'wide', 'attention'), { WG_X: wg })
  const softmax = createSoftmaxKernel(device, shaders, wg)
  const elementwise = createElementwiseKernel(device, shaders, wg)
  const none = new Int32Array(1)

  const check = (q: QTensor, k: QTensor, v: QTensor, shape: AttentionShape) => {
    const { batch, seqLen: s, heads, kvHeads, headDim: d } = shape
    const nq = shape.queryLen ?? s
    if (heads % kvHeads !== 0)
      throw new RangeError(`attention: ${heads} heads do not group into ${kvHeads} kv heads`)
    if (nq > s) throw new RangeError(`attention: ${nq} queries per sequence exceed ${s} keys`)
    const expect = (t: QTensor, rows: number, cols: number, what: string) => {
      if (t.shape.length !== 2 || t.shape[0] !== rows || t.shape[1] !== cols)
        throw new RangeError(
          `attention ${what} has shape [${t.shape.join(', ')}], expected [${rows}, ${cols}]`,
        )
    }
    expect(q, batch * nq, heads * d, 'q')
    expect(k, batch * s, kvHeads * d, 'k')
    expect(v, batch * s, kvHeads * d, 'v')
    return nq
  }

  interface Pass {
    /** Invocations: rows (narrow, scores, pv) or output elements (the backward's ops). */
    readonly count: number
    readonly outputs: number
    /** Columns of the narrowed tensor. */
    readonly cols?: number
    /** The rounding shift: output exponent minus the operands' exponents. */
    readonly shift?: number
  }
  const run = async (op: Op, shape: AttentionShape, pass: Pass, inputs: Int32Array[]) => {
    const { seqLen: s, heads, kvHeads, headDim: d } = shape
    const [out] = await dispatch(device, pipeline, {
      params: [
        op,
        pass.count,
        pass.cols ?? 0,
        s,
        shape.queryLen ?? s,
        heads,
        heads / kvHeads,
        d,
        pass.shift ?? 0,
      ],
      inputs: [...inputs, ...Array<Int32Array>(4 - inputs.length).fill(none)],
      outputs: [pass.outputs],
      groups: grid1D(pass.count, wg),
    })
    return out!
  }

  /** The twin's probabilities: stacked [B·H·Q, S] in Q30. */
  const probabilities = async (q: QTensor, k: QTensor, shape: AttentionShape, nq: number) => {
    const { batch, seqLen: s, heads, kvHeads, headDim: d } = shape
    const rows = batch * heads * nq
    const narrow = (t: QTensor, count: number, cols: number) =>
      run(Op.Narrow, shape, { count, outputs: count, cols }, [t.data])
    const qShift = await narrow(q, batch * nq, heads * d)
    const kShift = await narrow(k, batch * s, kvHeads * d)
    const scores = await run(
      Op.Scores,
      shape,
      { count: rows, outputs: rows * s, shift: SCORE_EXP - q.exp - k.exp },
      [q.data, k.data, qShift, kShift],
    )
    return softmax.softmax(qtensor([rows, s], SCORE_EXP, scores), {
      scaleQ30: rsqrtFixed(d, 0, -30),
      validCols: causal(s, nq),
    })
  }

  return {
    async forward(q, k, v, shape) {
      const nq = check(q, k, v, shape)
      const p = await probabilities(q, k, shape, nq)
      const rows = shape.batch * shape.heads * nq
      const outputs = shape.batch * nq * shape.heads * shape.headDim
      const out = await run(Op.Pv, shape, { count: rows, outputs }, [p.data, v.data])
      return qtensor([shape.batch * nq, shape.heads * shape.headDim], v.exp, out)
    },
    async backward(q, k, v, dOut, shape) {
      const { batch, seqLen: s, heads, kvHeads, headDim: d } = shape
      if (check(q, k, v, shape) !== s)
        throw new RangeError('attentionBackward: training attends every position')
      const rows = batch * heads * s
      const group = heads / kvHeads
      const p = await probabilities(q, k, shape, s)
      const cells = rows * s
      const p15 = qtensor(
        [rows, s],
        P15_EXP,
        await run(Op.P15, shape, { count: cells, outputs: cells }, [p.data]),
      )
      const don = await elementwise.narrow16(dOut)
      const dpExp = matmulBoundExp(don, v, d)
      const dpShift = dpExp - don.exp - v.exp
      const dp = await run(Op.Dp, shape, { count: cells, outputs: cells, shift: dpShift }, [don.data, v.data])
      const dScores = await softmax.softmaxBackward(p, qtensor([rows, s], dpExp, dp))
      const scale = qtensor([1], -30, Int32Array.of(rsqrtFixed(d, 0, -30)))
      const ds = await elementwise.narrow16(await elementwise.mul(dScores, scale))
      const grad = async (op: Op, x: QTensor, y: QTensor, cols: number, k: number) => {
        const e = matmulBoundExp(x, y, k)
        const n = batch * s * cols
        const out = await run(op, shape, { count: n, outputs: n, shift: e - x.exp - y.exp }, [x.data, y.data])
        return qtensor([batch * s, cols], e, out)
      }
      return {
        dq: await grad(Op.Dq, ds, k, heads * d, s),
        dk: await grad(Op.Dkv, ds, q, kvHeads * d, group * s),
        dv: await grad(Op.Dkv, p15, don, kvHeads * d, group * s),
      }
    },
  }
}
