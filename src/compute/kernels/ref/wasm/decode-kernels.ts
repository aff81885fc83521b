/**
 * The twin's third wasm module: a decode step's attention sums (attention.ts: `directScores`,
 * `directTimesKv`), on the first module's memory. A decode step has one query per row, so each
 * (row, head) is a few dot products over the KV cache, too small for a block product; the JS loops
 * over them were a fifth of the sampler's time. One call runs every query row of an attention op from
 * a job table. Sums are f64x2 lanes of exact integer products (each sum stays below 2^53, see
 * attention.ts), so their order changes no bit; each is rounded once by `roundScaled`. Head sizes are
 * even (the lanes take two columns at a time); the wrappers return false otherwise, and the TS
 * definitions run.
 */
import {
  F64,
  F64x2,
  I32,
  V128,
  code,
  get,
  i32,
  f64,
  set,
  v128,
  wasmModule,
  type Code,
  type WasmFunction,
} from './emit.ts'
import { frame, roundScaled, step, whileLoop } from './bytecode.ts'
import { onKernelMemory, stage } from './kernels.ts'

/** Bytes of a job: `dots` [qAt, kAt, kExpAt, outAt, n, rowShift], `weighted` [xAt, yAt, outAt, n] (elements). */
const DOTS_JOB = 24
const WEIGHTED_JOB = 16

/** acc + a·b over two f64 lanes, b's two i32 read at `ptr` and converted. */
const laneProduct = (acc: number, a: Code, ptr: number): Code =>
  code(get(acc), a, get(ptr), V128.load64Zero(0), F64x2.convertLowI32x4S, F64x2.mul, F64x2.add)

/** ptr ← base + 4·(the job's i32 at `field`): an element offset as an address, or a count as the end of a row. */
const fromJob = (base: number, jobs: number, field: number, ptr: number): Code =>
  code(get(base), get(jobs), I32.load(4 * field), I32.const(4), I32.mul, I32.add, set(ptr))

/**
 * What both kernels set up first: the row stride in bytes, the end of the d f64 lanes in scratch and
 * the end of the job table.
 */
const prologue = (
  stride: number,
  scratch: number,
  d: number,
  scratchEnd: number,
  jobs: number,
  count: number,
  jobBytes: number,
  jobsEnd: number,
): Code =>
  code(
    get(stride),
    I32.const(4),
    I32.mul,
    set(stride),
    get(scratch),
    get(d),
    I32.const(8),
    I32.mul,
    I32.add,
    set(scratchEnd),
    get(jobs),
    get(count),
    I32.const(jobBytes),
    I32.mul,
    I32.add,
    set(jobsEnd),
  )

function dotsFunction(): WasmFunction {
  // (q, k, kExps, out, jobs, count, kStride, d, scratch): per job, for j < n: out[outAt + j] =
  // sat32(rne(Σ_{dd<d} q[qAt + dd]·k[kAt + j·kStride + dd], rowShift − kExps[kExpAt + j]))
  const params = [i32, i32, i32, i32, i32, i32, i32, i32, i32] as const
  const [q, k, kExps, out, jobs, count, kStride, d, scratch] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
  const { locals, local } = frame(params)
  const i32s = (): number => local(i32)
  const [jobsEnd, qp, sp, scratchEnd, kRow, kp] = [i32s(), i32s(), i32s(), i32s(), i32s(), i32s()]
  const [ep, epEnd, op, shift, e] = [i32s(), i32s(), i32s(), i32s(), i32s()]
  const acc = local(v128)
  const v = local(f64)
  const body = code(
    prologue(kStride, scratch, d, scratchEnd, jobs, count, DOTS_JOB, jobsEnd),
    whileLoop(
      code(get(jobs), get(jobsEnd), I32.ltS),
      code(
        // the query row as f64, once per job
        fromJob(q, jobs, 0, qp),
        get(scratch),
        set(sp),
        whileLoop(
          code(get(sp), get(scratchEnd), I32.ltS),
          code(get(sp), get(qp), I32.load(0), F64.convertI32S, F64.store(0), step(qp, 4), step(sp, 8)),
        ),
        fromJob(k, jobs, 1, kRow),
        fromJob(kExps, jobs, 2, ep),
        fromJob(out, jobs, 3, op),
        fromJob(ep, jobs, 4, epEnd), // the end of the row's n key exponents
        whileLoop(
          code(get(ep), get(epEnd), I32.ltS),
          code(
            V128.zero,
            set(acc),
            get(scratch),
            set(sp),
            get(kRow),
            set(kp),
            whileLoop(
              code(get(sp), get(scratchEnd), I32.ltS),
              code(laneProduct(acc, code(get(sp), V128.load(0)), kp), set(acc), step(sp, 16), step(kp, 8)),
            ),
            get(acc),
            F64x2.extractLane(0),
            get(acc),
            F64x2.extractLane(1),
            F64.add,
            set(v),
            get(jobs),
            I32.load(20),
            get(ep),
            I32.load(0),
            I32.sub,
            set(shift),
            get(op),
            roundScaled(v, shift, e),
            I32.store(0),
            get(kRow),
            get(kStride),
            I32.add,
            set(kRow),
            step(ep, 4),
            step(op, 4),
          ),
        ),
        step(jobs, DOTS_JOB),
      ),
    ),
  )
  return { name: 'dots', params, results: [], locals, body }
}

function weightedFunction(): WasmFunction {
  // (x, y, out, jobs, count, yStride, d, shift, scratch): per job, for dd < d: out[outAt + dd] =
  // sat32(rne(Σ_{j<n} x[xAt + j]·y[yAt + j·yStride + dd], shift)), the d sums in f64 lanes in scratch
  const params = [i32, i32, i32, i32, i32, i32, i32, i32, i32] as const
  const [x, y, out, jobs, count, yStride, d, shift, scratch] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
  const { locals, local } = frame(params)
  const i32s = (): number => local(i32)
  const [jobsEnd, xp, xEnd, yRow, yp] = [i32s(), i32s(), i32s(), i32s(), i32s()]
  const [sp, scratchEnd, op, e] = [i32s(), i32s(), i32s(), i32s()]
  const [xv, acc] = [local(v128), local(v128)]
  const v = local(f64)
  const body = code(
    prologue(yStride, scratch, d, scratchEnd, jobs, count, WEIGHTED_JOB, jobsEnd),
    whileLoop(
      code(get(jobs), get(jobsEnd), I32.ltS),
      code(
        get(scratch),
        set(sp),
        whileLoop(
          code(get(sp), get(scratchEnd), I32.ltS),
          code(get(sp), V128.zero, V128.store(0), step(sp, 16)),
        ),
        fromJob(x, jobs, 0, xp),
        fromJob(y, jobs, 1, yRow),
        fromJob(out, jobs, 2, op),
        fromJob(xp, jobs, 3, xEnd), // the end of the row's n probabilities
        whileLoop(
          code(get(xp), get(xEnd), I32.ltS),
          code(
            get(xp),
            I32.load(0),
            F64.convertI32S,
            F64x2.splat,
            set(xv),
            get(scratch),
            set(sp),
            get(yRow),
            set(yp),
            whileLoop(
              code(get(sp), get(scratchEnd), I32.ltS),
              code(
                get(sp),
                V128.load(0),
                set(acc),
                get(sp),
                laneProduct(acc, get(xv), yp),
                V128.store(0),
                step(sp, 16),
                step(yp, 8),
              ),
            ),
            get(yRow),
            get(yStride),
            I32.add,
            set(yRow),
            step(xp, 4),
          ),
        ),
        get(scratch),
        set(sp),
        whileLoop(
          code(get(sp), get(scratchEnd), I32.ltS),
          code(
            get(sp),
            F64.load(0),
            set(v),
            get(op),
            roundScaled(v, shift, e),
            I32.store(0),
            step(sp, 8),
            step(op, 4),
          ),
        ),
        step(jobs, WEIGHTED_JOB),
      ),
    ),
  )
  return { name: 'weighted', params, results: [], locals, body }
}

export function decodeKernelBytes(): Uint8Array<ArrayBuffer> {
  return wasmModule([dotsFunction(), weightedFunction()], 'imported')
}

interface Exports {
  dots(
    q: number,
    k: number,
    kExps: number,
    out: number,
    jobs: number,
    count: number,
    kStride: number,
    d: number,
    scratch: number,
  ): void
  weighted(
    x: number,
    y: number,
    out: number,
    jobs: number,
    count: number,
    yStride: number,
    d: number,
    shift: number,
    scratch: number,
  ): void
}

const wasm = onKernelMemory<Exports>(decodeKernelBytes())

/** Whether this module's kernels are in use (false: the TS definitions run). */
export const decodeKernels = wasm !== undefined

/**
 * Every job's row of rounded dot products (directScores): jobs holds [qAt, kAt, kExpAt, outAt, n,
 * rowShift] per query row, element offsets into q, k, kExps and out; the rows of k are kStride apart
 * and d long. False without the kernels or for an odd d.
 */
export function dotsWasm(
  q: Int32Array,
  k: Int32Array,
  kExps: Int32Array,
  jobs: Int32Array,
  kStride: number,
  d: number,
  out: Int32Array,
): boolean {
  if (!wasm || d % 2 !== 0) return false
  // out is staged too: the entries no job writes (masked scores) keep their values
  const { at, buffer } = stage(wasm, [q, k, kExps, jobs, out], 8 * d)
  wasm.dots(at[0]!, at[1]!, at[2]!, at[4]!, at[3]!, jobs.length / 6, kStride, d, at[5]!)
  out.set(new Int32Array(buffer, at[4]!, out.length))
  return true
}

/**
 * Every job's d rounded sums of y's rows weighted by x (directTimesKv): jobs holds [xAt, yAt, outAt,
 * n] per query row, element offsets into x, y and out; y's rows are yStride apart. False without the
 * kernels or for an odd d.
 */
export function weightedWasm(
  x: Int32Array,
  y: Int32Array,
  jobs: Int32Array,
  yStride: number,
  d: number,
  shift: number,
  out: Int32Array,
): boolean {
  if (!wasm || d % 2 !== 0) return false
  const { at, buffer } = stage(wasm, [x, y, jobs, out], 8 * d)
  wasm.weighted(at[0]!, at[1]!, at[3]!, at[2]!, jobs.length / 4, yStride, d, shift, at[4]!)
  out.set(new Int32Array(buffer, at[3]!, out.length))
  return true
}
