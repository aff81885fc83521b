/**
 * The twin's hot kernels as WebAssembly, assembled from the bytecode below at import time (emit.ts)
 * and compiled synchronously: the module stays below the 4 KB a browser main thread may compile
 * synchronously (the Verify view re-executes receipts there; the trainer and peers run in workers,
 * the benches and headless peers in Node). Each kernel computes the same exact integers as its TS
 * definition, which stays the specification and the fallback where WebAssembly SIMD is missing or an
 * argument lies outside a kernel's domain; kernels.test.ts and the parity suites compare the two.
 *
 * - `tileSums`: exact partial sums of a matmul over a reduction range, f64x2 SIMD on 4×4 output tiles.
 *   Operands are integers held in f64; the caller keeps every partial sum within 2^53 (runs of
 *   ⌊2^53/(max·max)⌋ products), so the sums are exact in any order, as in the TS tiles. `roundSums`
 *   rounds them to the output exponents in i64.
 * - `expCore` (with `exp`, `expRow`), `softmaxRows`, `sigmoidRow`, `softmaxBackRows`, `mulRow`,
 *   `mulRowExact`: expFixed, softmax rows, σ and the elementwise mulRne with native i64 arithmetic:
 *   every product of the TS version's split doubles is one i64 multiply here, every rounding a shift.
 * - `maxAbs`: i32x4 lanes.
 * - more kernels in a second module of their own (elementwise-kernels.ts), on this module's memory.
 */
import {
  F64,
  F64x2,
  I32,
  I32x4,
  I64,
  I64x2,
  V128,
  call,
  else_,
  simdOp,
  code,
  end,
  f64,
  get,
  i32,
  i64,
  if_,
  ret,
  select,
  set,
  tee,
  v128,
  wasmModule,
  type Code,
  type WasmFunction,
} from './emit.ts'
import { EXP_TAYLOR, LN2_Q30, LOG2E_Q30 } from '../exp-constants.ts'
import { I32_MAX } from '../rounding.ts'
import { frame, loadI32, rneI64, rneVar, sat, step, toBytes, whileLoop } from './bytecode.ts'

/** Output rows and columns of a register tile: 8 f64x2 accumulators. */
export const WASM_TILE = 4

function tileSumsFunction(): WasmFunction {
  // (xp, yp, out, rowTiles, colTiles, k, from, to, stride): x and y packed as panels [tile][k][4] of
  // f64, out[i·stride + j] = Σ_{kk ∈ [from, to)} x[i, kk]·y[j, kk] for the first 4·colTiles columns
  const params = [i32, i32, i32, i32, i32, i32, i32, i32, i32] as const
  const [xp, yp, out, rowTiles, colTiles, k, from, to, stride] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
  const { locals, local } = frame(params)
  const [it, jt, pa, pb, endA, o, panel, rowBytes] = [
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
  ]
  const acc = Array.from({ length: 8 }, () => local(v128))
  const [a, b0, b1] = [local(v128), local(v128), local(v128)]
  const mac = (r: number): Code =>
    code(
      get(pa),
      V128.load64Splat(8 * r),
      set(a),
      get(acc[2 * r]!),
      get(a),
      get(b0),
      F64x2.mul,
      F64x2.add,
      set(acc[2 * r]!),
      get(acc[2 * r + 1]!),
      get(a),
      get(b1),
      F64x2.mul,
      F64x2.add,
      set(acc[2 * r + 1]!),
    )
  const storeRow = (r: number): Code =>
    code(
      get(o),
      get(acc[2 * r]!),
      V128.store(0),
      get(o),
      get(acc[2 * r + 1]!),
      V128.store(16),
      get(o),
      get(rowBytes),
      I32.add,
      set(o),
    )
  const start = (p: number, tile: number): Code =>
    code(get(p), get(tile), get(panel), I32.mul, I32.add, get(from), I32.const(32), I32.mul, I32.add)
  const kLoop = whileLoop(
    code(get(pa), get(endA), I32.ltS),
    code(
      get(pb),
      V128.load(0),
      set(b0),
      get(pb),
      V128.load(16),
      set(b1),
      mac(0),
      mac(1),
      mac(2),
      mac(3),
      get(pa),
      I32.const(32),
      I32.add,
      set(pa),
      get(pb),
      I32.const(32),
      I32.add,
      set(pb),
    ),
  )
  const tile = code(
    start(xp, it),
    tee(pa),
    get(to),
    get(from),
    I32.sub,
    I32.const(32),
    I32.mul,
    I32.add,
    set(endA),
    start(yp, jt),
    set(pb),
    ...acc.map((r) => code(V128.zero, set(r))),
    kLoop,
    // o = out + it·4·rowBytes + jt·32
    get(out),
    get(it),
    I32.const(4),
    I32.mul,
    get(rowBytes),
    I32.mul,
    I32.add,
    get(jt),
    I32.const(32),
    I32.mul,
    I32.add,
    set(o),
    storeRow(0),
    storeRow(1),
    storeRow(2),
    storeRow(3),
  )
  const body = code(
    get(k),
    I32.const(32),
    I32.mul,
    set(panel),
    get(stride),
    I32.const(8),
    I32.mul,
    set(rowBytes),
    I32.const(0),
    set(it),
    whileLoop(
      code(get(it), get(rowTiles), I32.ltS),
      code(
        I32.const(0),
        set(jt),
        whileLoop(code(get(jt), get(colTiles), I32.ltS), code(tile, get(jt), I32.const(1), I32.add, set(jt))),
        get(it),
        I32.const(1),
        I32.add,
        set(it),
      ),
    ),
  )
  return { name: 'tileSums', params, results: [], locals, body }
}

/**
 * (src, dst, rows, k, rowStride, kStride, groups, groupStride, ranges): packs op(X) into tileSums'
 * panels [tile][k][4] of f64. Element (r, kk), kk = step·groups + g, is the i32 at src + 4·(r·rowStride
 * + step·kStride + g·groupStride); row tile t is packed over [ranges[2t], ranges[2t + 1]) only.
 */
function packPanelsFunction(): WasmFunction {
  const params = [i32, i32, i32, i32, i32, i32, i32, i32, i32] as const
  const [src, dst, rows, k, rowStride, kStride, groups, groupStride, ranges] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
  const { locals, local } = frame(params)
  const [r, range, kk, to, g, stepAt, at, d] = [
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
  ]
  const body = code(
    toBytes(rowStride),
    toBytes(kStride),
    toBytes(groupStride),
    whileLoop(
      code(get(r), get(rows), I32.ltS),
      code(
        // this row's tile range, and its first panel entry: dst + 8·(tile·4k + r mod 4 + 4·from)
        get(ranges),
        get(r),
        I32.const(2),
        I32.shrS,
        I32.const(8),
        I32.mul,
        I32.add,
        tee(range),
        I32.load(0),
        set(kk),
        get(range),
        I32.load(4),
        set(to),
        get(dst),
        get(r),
        I32.const(2),
        I32.shrS,
        get(k),
        I32.mul,
        I32.const(4),
        I32.mul,
        get(r),
        I32.const(3),
        I32.and,
        I32.add,
        get(kk),
        I32.const(4),
        I32.mul,
        I32.add,
        I32.const(8),
        I32.mul,
        I32.add,
        set(d),
        // kk = step·groups + g: the element's address walked with counters
        get(kk),
        get(kk),
        get(groups),
        I32.divU,
        tee(stepAt),
        get(groups),
        I32.mul,
        I32.sub,
        set(g),
        get(src),
        get(r),
        get(rowStride),
        I32.mul,
        I32.add,
        get(stepAt),
        get(kStride),
        I32.mul,
        I32.add,
        tee(stepAt),
        get(g),
        get(groupStride),
        I32.mul,
        I32.add,
        set(at),
        whileLoop(
          code(get(kk), get(to), I32.ltS),
          code(
            get(d),
            get(at),
            I32.load(0),
            F64.convertI32S,
            F64.store(0),
            step(d, 32),
            step(kk, 1),
            get(g),
            I32.const(1),
            I32.add,
            tee(g),
            get(groups),
            I32.eq,
            if_,
            I32.const(0),
            set(g),
            get(stepAt),
            get(kStride),
            I32.add,
            tee(stepAt),
            set(at),
            else_,
            get(at),
            get(groupStride),
            I32.add,
            set(at),
            end,
          ),
        ),
        step(r, 1),
      ),
    ),
  )
  return { name: 'packPanels', params, results: [], locals, body }
}

/** Round-half-even quotient num/den of an i64 num ≥ 0 and den > 0 (locals), onto the stack; q and r2 are scratch. */
const divRneI64 = (num: number, den: number, q: number, r2: number): Code =>
  code(
    get(num),
    get(den),
    I64.divU,
    set(q),
    get(num),
    get(q),
    get(den),
    I64.mul,
    I64.sub,
    I64.const(1),
    I64.shl,
    set(r2),
    // 2r against den: q + 1 past half, and at exactly half when q is odd
    get(q),
    get(r2),
    get(den),
    I64.gtS,
    get(r2),
    get(den),
    I64.eq,
    get(q),
    I32.wrapI64,
    I32.const(1),
    I32.and,
    I32.and,
    I32.or,
    I64.extendI32U,
    I64.add,
  )

/** The index of expCore in the module: the exp kernels call it. */
const EXP_CORE = 0

function expFunction(): WasmFunction {
  // (d: i64, s: i32, outExp: i32, log2e: i64) → i32: expFixed(d, 6 − s, outExp, log2e) for 0 ≤ s ≤ 60,
  // |d| < 2^32, |log2e| < 2^31 (the product stays below 2^63 and the rounding's bias below 2^60)
  const params = [i64, i32, i32, i64] as const
  const [d, s, outExp, log2e] = [0, 1, 2, 3]
  const { locals, local } = frame(params)
  const [p, y, n, shift, u, acc] = [local(i64), local(i64), local(i64), local(i64), local(i64), local(i64)]
  const horner = EXP_TAYLOR.slice(0, 10)
    .reverse()
    .map((c) =>
      code(get(acc), get(u), I64.mul, set(acc), I64.const(c), rneI64(acc, I64.const(30)), I64.sub, set(acc)),
    )
  const body = code(
    // y = sat32(round(d·log2e·2^-s)); s = 0 is the product itself
    get(d),
    get(log2e),
    I64.mul,
    set(p),
    get(p),
    rneI64(p, code(get(s), I64.extendI32S)),
    get(s),
    I32.eqz,
    select,
    set(y),
    sat(y),
    // n = ⌈y/2^24⌉, and 2^-g·2^30 rounds to 0 at every shift ≥ 31
    get(y),
    I64.const(2 ** 24 - 1),
    I64.add,
    I64.const(24),
    I64.shrS,
    set(n),
    I64.const(30),
    get(outExp),
    I64.extendI32S,
    I64.add,
    get(n),
    I64.sub,
    tee(shift),
    I64.const(31),
    I64.geS,
    if_,
    I32.const(0),
    ret,
    end,
    // u = round(g·ln 2·2^-24) with g = n·2^24 − y ∈ [0, 2^24)
    get(n),
    I64.const(24),
    I64.shl,
    get(y),
    I64.sub,
    I64.const(LN2_Q30),
    I64.mul,
    set(u),
    rneI64(u, I64.const(24)),
    set(u),
    I64.const(EXP_TAYLOR[10]!),
    set(acc),
    ...horner,
    // the result: acc·2^-shift rounded, or (shift < 0) acc·2^|shift| saturated; acc ∈ (2^29, 2^30]
    get(shift),
    I64.const(0),
    I64.geS,
    if_,
    get(acc),
    rneI64(acc, get(shift)),
    get(shift),
    I64.eqz,
    select,
    I32.wrapI64,
    ret,
    end,
    get(shift),
    I64.const(-31),
    I64.ltS,
    if_,
    I32.const(I32_MAX),
    ret,
    end,
    get(acc),
    I64.const(0),
    get(shift),
    I64.sub,
    I64.shl,
    set(acc),
    sat(acc),
    get(acc),
    I32.wrapI64,
  )
  return { name: 'expCore', params, results: [i32], locals, body, internal: true }
}

/** The scalar entry: (x: f64, s, outExp, log2e: i32) → expCore(x, s, outExp, log2e), no bigint at the boundary. */
function expScalarFunction(): WasmFunction {
  const body = code(get(0), I64.truncF64S, get(1), get(2), get(3), I64.extendI32S, call(EXP_CORE))
  return { name: 'exp', params: [f64, i32, i32, i32], results: [i32], locals: [], body }
}

function expRowFunction(): WasmFunction {
  // (x, out, count, max, s, outExp, log2e) → Σ e: out[j] = f64(exp(x[j] − max, …)) for an i32 row x
  const params = [i32, i32, i32, i32, i32, i32, i32] as const
  const [x, out, count, max, s, outExp, log2e] = [0, 1, 2, 3, 4, 5, 6]
  const { locals, local } = frame(params)
  const [end_, e, log2e64] = [local(i32), local(i64), local(i64)]
  const sum = local(i64)
  const body = code(
    get(log2e),
    I64.extendI32S,
    set(log2e64),
    get(x),
    get(count),
    I32.const(4),
    I32.mul,
    I32.add,
    set(end_),
    whileLoop(
      code(get(x), get(end_), I32.ltS),
      code(
        get(x),
        I32.load(0),
        I64.extendI32S,
        get(max),
        I64.extendI32S,
        I64.sub,
        get(s),
        get(outExp),
        get(log2e64),
        call(EXP_CORE),
        I64.extendI32S,
        set(e),
        get(out),
        get(e),
        F64.convertI64S,
        F64.store(0),
        get(sum),
        get(e),
        I64.add,
        set(sum),
        get(x),
        I32.const(4),
        I32.add,
        set(x),
        get(out),
        I32.const(8),
        I32.add,
        set(out),
      ),
    ),
    get(sum),
    F64.convertI64S,
  )
  return { name: 'expRow', params, results: [f64], locals, body }
}

function softmaxRowsFunction(): WasmFunction {
  // (x, valid, out, scratch, rows, n, s, log2e): softmaxRowTs on every row of an i32 [rows, n] x. Row i
  // takes its first valid[i] ≤ n columns: e_j = exp(x_j − max, s, −30, log2e) ≤ 2^30 into the i64
  // scratch, the sum (< 2^52 for n ≤ 2^22) rounded to den ≤ 2^31 by shift = max(0, bits − 31), then
  // out_j = round-half-even(e_j·2^(30 − shift) / den), one native i64 division; masked columns are 0
  const params = [i32, i32, i32, i32, i32, i32, i32, i32] as const
  const [x, valid, out, scratch, rows, n, s, log2e] = [0, 1, 2, 3, 4, 5, 6, 7]
  const { locals, local } = frame(params)
  const [row, j, count] = [local(i32), local(i32), local(i32)]
  const [log2e64, v, max, e, sum] = [local(i64), local(i64), local(i64), local(i64), local(i64)]
  const [shift, den, num, q, r2] = [local(i64), local(i64), local(i64), local(i64), local(i64)]
  const at = (base: number, bytes: number): Code =>
    code(get(base), get(j), I32.const(bytes), I32.mul, I32.add)
  const xj = code(at(x, 4), I32.load(0), I64.extendI32S)
  // for (j = from; j < to; j++) body
  const columns = (from: Code, to: Code, body: Code): Code =>
    code(
      from,
      set(j),
      whileLoop(code(get(j), to, I32.ltS), code(body, get(j), I32.const(1), I32.add, set(j))),
    )
  const rowBody = code(
    get(valid),
    I32.load(0),
    set(count),
    I64.const(-(2 ** 31)),
    set(max),
    columns(
      I32.const(0),
      get(count),
      code(xj, tee(v), get(max), get(v), get(max), I64.gtS, select, set(max)),
    ),
    I64.const(0),
    set(sum),
    columns(
      I32.const(0),
      get(count),
      code(
        at(scratch, 8),
        xj,
        get(max),
        I64.sub,
        get(s),
        I32.const(-30),
        get(log2e64),
        call(EXP_CORE),
        I64.extendI32S,
        tee(e),
        I64.store(0),
        get(sum),
        get(e),
        I64.add,
        set(sum),
      ),
    ),
    // shift = max(0, bitLength(sum) − 31); a row with no valid column has sum 0 and divides nothing
    I64.const(33),
    get(sum),
    I64.clz,
    I64.sub,
    tee(shift),
    I64.const(0),
    get(shift),
    I64.const(0),
    I64.gtS,
    select,
    set(shift),
    rneVar(sum, shift),
    set(den),
    I64.const(30),
    get(shift),
    I64.sub,
    set(shift),
    columns(
      I32.const(0),
      get(count),
      code(
        at(out, 4),
        at(scratch, 8),
        I64.load(0),
        get(shift),
        I64.shl,
        set(num),
        divRneI64(num, den, q, r2),
        I32.wrapI64,
        I32.store(0),
      ),
    ),
    columns(get(count), get(n), code(at(out, 4), I32.const(0), I32.store(0))),
  )
  const body = code(
    get(log2e),
    I64.extendI32S,
    set(log2e64),
    I32.const(0),
    set(row),
    whileLoop(
      code(get(row), get(rows), I32.ltS),
      code(
        rowBody,
        step(valid, 4),
        get(n),
        I32.const(4),
        I32.mul,
        set(count),
        get(x),
        get(count),
        I32.add,
        set(x),
        get(out),
        get(count),
        I32.add,
        set(out),
        get(row),
        I32.const(1),
        I32.add,
        set(row),
      ),
    ),
  )
  return { name: 'softmaxRows', params, results: [], locals, body }
}

/**
 * (a, b, bBytes, out, count, s): out[i] = round(a[i]·b[i mod bLen]·2^-s) for i32 a and b, 0 ≤ s ≤ 60:
 * saturated to i32 (mulRow), or exact as f64 (mulRowExact, for products that feed an exact sum).
 */
function mulRowFunction(saturate: boolean): WasmFunction {
  const params = [i32, i32, i32, i32, i32, i32] as const
  const [a, b, bBytes, out, count, s] = [0, 1, 2, 3, 4, 5]
  const { locals, local } = frame(params)
  const [end_, pb, bEnd] = [local(i32), local(i32), local(i32)]
  const [p, s64] = [local(i64), local(i64)]
  const body = code(
    get(s),
    I64.extendI32S,
    set(s64),
    get(a),
    get(count),
    I32.const(4),
    I32.mul,
    I32.add,
    set(end_),
    get(b),
    tee(pb),
    get(bBytes),
    I32.add,
    set(bEnd),
    whileLoop(
      code(get(a), get(end_), I32.ltS),
      code(
        loadI32(a),
        loadI32(pb),
        I64.mul,
        set(p),
        rneVar(p, s64),
        set(p),
        saturate
          ? code(sat(p), get(out), get(p), I32.wrapI64, I32.store(0))
          : code(get(out), get(p), F64.convertI64S, F64.store(0)),
        step(a, 4),
        step(out, saturate ? 4 : 8),
        step(pb, 4),
        // b repeats every bLen elements (a per-column weight, or one scalar)
        get(b),
        get(pb),
        get(pb),
        get(bEnd),
        I32.eq,
        select,
        set(pb),
      ),
    ),
  )
  return { name: saturate ? 'mulRow' : 'mulRowExact', params, results: [], locals, body }
}

function sigmoidRowFunction(): WasmFunction {
  // (x, out, count, s): out[i] = sigmoidQ30(x[i], 6 − s) = 1/(1 + e^-|x|) in Q30, mirrored for x < 0
  const params = [i32, i32, i32, i32] as const
  const [x, out, count, s] = [0, 1, 2, 3]
  const { locals, local } = frame(params)
  const end_ = local(i32)
  const [v, num, den, q, r2] = [local(i64), local(i64), local(i64), local(i64), local(i64)]
  const body = code(
    get(x),
    get(count),
    I32.const(4),
    I32.mul,
    I32.add,
    set(end_),
    I64.const(2n ** 60n),
    set(num),
    whileLoop(
      code(get(x), get(end_), I32.ltS),
      code(
        loadI32(x),
        set(v),
        // e = expFixed(−|x|, 6 − s, −30); den = 2^30 + e; pos = round(2^60 / den)
        I64.const(0),
        get(v),
        I64.sub,
        get(v),
        get(v),
        I64.const(0),
        I64.gtS,
        select,
        get(s),
        I32.const(-30),
        I64.const(LOG2E_Q30),
        call(EXP_CORE),
        I64.extendI32S,
        I64.const(2 ** 30),
        I64.add,
        set(den),
        divRneI64(num, den, q, r2),
        set(q),
        get(out),
        I64.const(2 ** 30),
        get(q),
        I64.sub,
        get(q),
        get(v),
        I64.const(0),
        I64.ltS,
        select,
        I32.wrapI64,
        I32.store(0),
        step(x, 4),
        step(out, 4),
      ),
    ),
  )
  return { name: 'sigmoidRow', params, results: [], locals, body }
}

function softmaxBackRowsFunction(): WasmFunction {
  // (p, dp, u, rows, n, guard, t): per row, dot = Σ round(p·dp·2^-(30 − guard)), then
  // u[j] = sat32(round((dp[j]·2^guard − dot)·2^-t)); p in Q30, i32 dp, 9 ≤ 30 − guard and 0 ≤ t ≤ 60
  const params = [i32, i32, i32, i32, i32, i32, i32] as const
  const [p, dp, u, rows, n, guard, t] = [0, 1, 2, 3, 4, 5, 6]
  const { locals, local } = frame(params)
  const [row, pp, pdp, rowEnd] = [local(i32), local(i32), local(i32), local(i32)]
  const [dot, prod, sp, g64, t64] = [local(i64), local(i64), local(i64), local(i64), local(i64)]
  const body = code(
    I64.const(30),
    get(guard),
    I64.extendI32S,
    tee(g64),
    I64.sub,
    set(sp),
    get(t),
    I64.extendI32S,
    set(t64),
    I32.const(0),
    set(row),
    whileLoop(
      code(get(row), get(rows), I32.ltS),
      code(
        I64.const(0),
        set(dot),
        get(p),
        set(pp),
        get(dp),
        tee(pdp),
        get(n),
        I32.const(4),
        I32.mul,
        I32.add,
        set(rowEnd),
        whileLoop(
          code(get(pdp), get(rowEnd), I32.ltS),
          code(
            loadI32(pp),
            loadI32(pdp),
            I64.mul,
            set(prod),
            get(dot),
            rneVar(prod, sp),
            I64.add,
            set(dot),
            step(pp, 4),
            step(pdp, 4),
          ),
        ),
        get(dp),
        set(pdp),
        whileLoop(
          code(get(pdp), get(rowEnd), I32.ltS),
          code(
            loadI32(pdp),
            get(g64),
            I64.shl,
            get(dot),
            I64.sub,
            set(prod),
            rneVar(prod, t64),
            set(prod),
            sat(prod),
            get(u),
            get(prod),
            I32.wrapI64,
            I32.store(0),
            step(pdp, 4),
            step(u, 4),
          ),
        ),
        get(pp),
        set(p),
        get(pdp),
        set(dp),
        get(row),
        I32.const(1),
        I32.add,
        set(row),
      ),
    ),
  )
  return { name: 'softmaxBackRows', params, results: [], locals, body }
}

function roundSumsFunction(): WasmFunction {
  // (sums, stride, out, m, n, aExps, bExps, outExp): out[i·n + j] = sat32(rne(sums[i·stride + j],
  // outExp − aExps[i] − bExps[j])) for exact integer sums |·| ≤ 2^53 held in f64, two columns at a
  // time: each sum times 2^(aExps[i] + bExps[j] − outExp) (a power of two built from its exponent bits,
  // so the product is exact), f64x2.nearest (ties to even), clamped to ±(2^31 − 1). A factor below
  // 2^-1022 is built as 0 and one above 2^1023 as ∞: the sums round to 0 or saturate, and 0·∞ (a NaN)
  // truncates to 0, as the exact rounding of a zero sum.
  const params = [i32, i32, i32, i32, i32, i32, i32, i32] as const
  const [sums, stride, out, m, n, aExps, bExps, outExp] = [0, 1, 2, 3, 4, 5, 6, 7]
  const { locals, local } = frame(params)
  const [aEnd, ps, pe, pairEnd, rowEnd] = [local(i32), local(i32), local(i32), local(i32), local(i32)]
  const [bias, hi, lo, top] = [local(v128), local(v128), local(v128), local(v128)]
  const rounded = (load: Code, loadExps: Code, store: Code): Code =>
    code(
      get(out),
      get(ps),
      load,
      get(pe),
      loadExps,
      get(bias),
      I32x4.add,
      V128.zero,
      I32x4.maxS,
      get(top),
      I32x4.minS,
      I64x2.extendLowI32x4S,
      I32.const(52),
      I64x2.shl,
      F64x2.mul,
      F64x2.nearest,
      get(hi),
      F64x2.min,
      get(lo),
      F64x2.max,
      I32x4.truncSatF64x2SZero,
      store,
    )
  const body = code(
    I32.const(I32_MAX),
    F64.convertI32S,
    F64x2.splat,
    set(hi),
    I32.const(-I32_MAX),
    F64.convertI32S,
    F64x2.splat,
    set(lo),
    I32.const(2047),
    I32x4.splat,
    set(top),
    get(stride),
    I32.const(8),
    I32.mul,
    set(stride),
    get(aExps),
    get(m),
    I32.const(4),
    I32.mul,
    I32.add,
    set(aEnd),
    get(bExps),
    get(n),
    I32.const(-2),
    I32.and,
    I32.const(4),
    I32.mul,
    I32.add,
    set(pairEnd),
    get(bExps),
    get(n),
    I32.const(4),
    I32.mul,
    I32.add,
    set(rowEnd),
    whileLoop(
      code(get(aExps), get(aEnd), I32.ltS),
      code(
        get(aExps),
        I32.load(0),
        get(outExp),
        I32.sub,
        I32.const(1023),
        I32.add,
        I32x4.splat,
        set(bias),
        get(sums),
        set(ps),
        get(bExps),
        set(pe),
        whileLoop(
          code(get(pe), get(pairEnd), I32.ltS),
          code(
            rounded(V128.load(0), V128.load64Zero(0), V128.store64Lane(0)),
            step(ps, 16),
            step(pe, 8),
            step(out, 8),
          ),
        ),
        get(pe),
        get(rowEnd),
        I32.ltS,
        if_,
        rounded(V128.load64Zero(0), V128.load32Zero(0), V128.store32Lane(0)),
        step(out, 4),
        end,
        get(sums),
        get(stride),
        I32.add,
        set(sums),
        step(aExps, 4),
      ),
    ),
  )
  return { name: 'roundSums', params, results: [], locals, body }
}

function maxAbsFunction(): WasmFunction {
  // (x, count) → max|x[i]| as f64 (2^31 for −2^31): |·| as u32 lanes, so the one i32 that has no
  // negation still compares right
  const params = [i32, i32] as const
  const [x, count] = [0, 1]
  const { locals, local } = frame(params)
  const [end4, end_] = [local(i32), local(i32)]
  const [acc] = [local(v128)]
  const [best, v] = [local(i64), local(i64)]
  const lane = (l: number): Code => code(get(acc), simdOp(0x1b, l), I64.extendI32U) // i32x4.extract_lane
  const body = code(
    get(x),
    get(count),
    I32.const(-4),
    I32.and,
    I32.const(4),
    I32.mul,
    I32.add,
    set(end4),
    get(x),
    get(count),
    I32.const(4),
    I32.mul,
    I32.add,
    set(end_),
    V128.zero,
    set(acc),
    whileLoop(
      code(get(x), get(end4), I32.ltS),
      code(get(acc), get(x), V128.load(0), simdOp(0xa0), simdOp(0xb9), set(acc), step(x, 16)), // i32x4.abs, max_u
    ),
    whileLoop(
      code(get(x), get(end_), I32.ltS),
      code(
        get(x),
        I32.load(0),
        I64.extendI32S,
        set(v),
        I64.const(0),
        get(v),
        I64.sub,
        get(v),
        get(v),
        I64.const(0),
        I64.ltS,
        select,
        set(v),
        get(v),
        get(best),
        get(v),
        get(best),
        I64.gtS,
        select,
        set(best),
        step(x, 4),
      ),
    ),
    ...[0, 1, 2, 3].map((l) =>
      code(lane(l), set(v), get(v), get(best), get(v), get(best), I64.gtS, select, set(best)),
    ),
    get(best),
    F64.convertI64S,
  )
  return { name: 'maxAbs', params, results: [f64], locals, body }
}

interface Exports {
  readonly memory: WebAssembly.Memory
  tileSums(
    xp: number,
    yp: number,
    out: number,
    rowTiles: number,
    colTiles: number,
    k: number,
    from: number,
    to: number,
    stride: number,
  ): void
  exp(x: number, s: number, outExp: number, log2e: number): number
  expRow(x: number, out: number, count: number, max: number, s: number, outExp: number, log2e: number): number
  softmaxRows(
    x: number,
    valid: number,
    out: number,
    scratch: number,
    rows: number,
    n: number,
    s: number,
    log2e: number,
  ): void
  mulRow(a: number, b: number, bBytes: number, out: number, count: number, s: number): void
  mulRowExact(a: number, b: number, bBytes: number, out: number, count: number, s: number): void
  sigmoidRow(x: number, out: number, count: number, s: number): void
  softmaxBackRows(p: number, dp: number, u: number, rows: number, n: number, guard: number, t: number): void
  roundSums(
    sums: number,
    stride: number,
    out: number,
    m: number,
    n: number,
    aExps: number,
    bExps: number,
    outExp: number,
  ): void
  maxAbs(x: number, count: number): number
  packPanels(
    src: number,
    dst: number,
    rows: number,
    k: number,
    rowStride: number,
    kStride: number,
    groups: number,
    groupStride: number,
    ranges: number,
  ): void
}

/** The module's bytes (expCore is function EXP_CORE: the exp kernels call it by index). */
export function kernelBytes(): Uint8Array<ArrayBuffer> {
  return wasmModule(
    [
      expFunction(),
      expScalarFunction(),
      tileSumsFunction(),
      expRowFunction(),
      softmaxRowsFunction(),
      mulRowFunction(true),
      mulRowFunction(false),
      sigmoidRowFunction(),
      softmaxBackRowsFunction(),
      roundSumsFunction(),
      maxAbsFunction(),
      packPanelsFunction(),
    ],
    16,
  )
}

function instantiate(): Exports | undefined {
  if (typeof WebAssembly !== 'object') return undefined
  const bytes = kernelBytes()
  // a runtime without SIMD rejects the module: the TS kernels then run, with the same bits
  if (!WebAssembly.validate(bytes)) return undefined
  try {
    return new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as Exports
  } catch {
    // a runtime that refuses synchronous compilation here (a browser main thread past its size limit)
    return undefined
  }
}

const wasm = instantiate()

/** Whether the wasm kernels are in use (false: the TS definitions run). */
export const wasmKernels = wasm !== undefined

/**
 * Another module of kernels on this module's memory (it imports env.memory): its exports, or undefined
 * without these kernels or where the runtime refuses to compile it synchronously (the TS definitions
 * then run, with the same bits).
 */
export function onKernelMemory<T>(
  bytes: Uint8Array<ArrayBuffer>,
): (T & { readonly memory: WebAssembly.Memory }) | undefined {
  if (!wasm) return undefined
  try {
    const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory: wasm.memory } })
      .exports
    return { ...(exports as T), memory: wasm.memory }
  } catch {
    return undefined
  }
}

/** The memory's buffer, at least `bytes` long (growing detaches older views: take them after this). */
function reserve(w: { readonly memory: WebAssembly.Memory }, bytes: number): ArrayBuffer {
  const have = w.memory.buffer.byteLength
  if (have < bytes) w.memory.grow(Math.ceil((bytes - have) / 65536))
  return w.memory.buffer
}

/**
 * op(A) or op(B) of a matmul: element (r, kk) is data[r·rowStride + kk·kStride]; with `groups`, the
 * reduction runs over kk·groups + g and element (r, kk·groups + g) is data[r·rowStride + kk·kStride +
 * g·groupStride] (attention's kv-group sums read the group's heads in place, as one reduction).
 */
export interface Operand {
  readonly data: Int32Array
  readonly rows: number
  readonly rowStride: number
  readonly kStride: number
  readonly groups?: number
  readonly groupStride?: number
}

/**
 * Row tile `index` of a product (output rows [4·index, 4·index + 4)) against its first `cols`
 * columns, summed over the reduction range [from, to): what a causal block needs of itself.
 */
export interface TileRows {
  readonly index: number
  readonly cols: number
  readonly from: number
  readonly to: number
}

/** A matmul's operands packed into wasm memory once; `sums` reads the exact partial sums of a range. */
export interface PackedMatmul {
  /** Row stride of the sums (columns padded to a whole tile). */
  readonly stride: number
  /**
   * sums[i·stride + j] = Σ_{kk ∈ [from, to)} x[i, kk]·y[j, kk]; valid until the next kernel call.
   * With `tile`, only that row tile's rows (and its first ⌈cols/4⌉ column tiles) are written.
   */
  sums(from: number, to: number, tile?: Pick<TileRows, 'index' | 'cols'>): Float64Array
  /**
   * The m×n output of the whole reduction (one range: the caller knows every sum stays within 2^53):
   * sat32(rne(sum, outExp − aExps[i] − bExps[j])), rounded in wasm. With `tile`, that tile's rows over
   * its range only, row i written from out[tile.at + i·tile.stride] on.
   */
  rounded(aExps: Int32Array, bExps: Int32Array, outExp: number, out: Int32Array, tile?: PlacedTile): void
}

/** A row tile whose rounded rows land in place: row i of the product at out[at + i·stride]. */
export interface PlacedTile extends TileRows {
  readonly at: number
  readonly stride: number
}

const tiles = (rows: number): number => Math.ceil(rows / WASM_TILE)

/** A reduction range [from, to). */
type Range = Pick<TileRows, 'from' | 'to'>

/** Elements of `t.data` an operand reads: from its start to its last element (k ≥ 1). */
function span(t: Operand, k: number): number {
  const { rows, rowStride, kStride, groups = 1, groupStride = 0 } = t
  const last =
    (rows - 1) * rowStride +
    Math.floor((k - 1) / groups) * kStride +
    Math.min(groups, k) * groupStride -
    groupStride
  return Math.min(t.data.length, last + 1)
}

/**
 * Panel layout [tile][k][4]: the 4 rows of a tile side by side for every kk, over the range each
 * tile is summed on (all of k when `range` is absent), packed by the packPanels kernel from the
 * operand's elements staged at `srcAt` (with its tile ranges after them). Past the last row the panel
 * holds whatever the memory held: a lane of the tile only ever meets its own row's sums, which are
 * never read.
 */
function pack(
  w: Exports,
  dstAt: number,
  srcAt: number,
  t: Operand,
  k: number,
  range?: (tile: number) => Range,
): void {
  const n = span(t, k)
  const buffer = w.memory.buffer
  new Int32Array(buffer, srcAt, n).set(t.data.subarray(0, n))
  const rangesAt = srcAt + 8 * Math.ceil(n / 2)
  const ranges = new Int32Array(buffer, rangesAt, 2 * tiles(t.rows))
  for (let tile = 0; tile < ranges.length / 2; tile++) {
    const { from, to } = range?.(tile) ?? { from: 0, to: k }
    ranges[2 * tile] = from
    ranges[2 * tile + 1] = to
  }
  const { rows, rowStride, kStride, groups = 1, groupStride = 0 } = t
  w.packPanels(srcAt, dstAt, rows, k, rowStride, kStride, groups, groupStride, rangesAt)
}

/** Bytes pack stages for an operand: its elements and its tile ranges. */
const packBytes = (t: Operand, k: number): number => 8 * Math.ceil(span(t, k) / 2) + 8 * tiles(t.rows)

/**
 * The panels of a second operand used again, by its data: a decode step multiplies by the same
 * narrowed weights for every token, and packing a weight cost more than its few rows' products. A
 * panel is kept from an operand's second use in the same layout (an activation is used once, and
 * keeping a copy of every panel would move twice the memory). Sound because tensors are values (no
 * op writes its inputs, nothing writes a tensor after handing it to an op); a view made for one call
 * (a subarray) is a new key each time, so it is never kept.
 */
const panels = new WeakMap<Int32Array, { readonly layout: string; panel?: Float64Array }>()

function packRemembered(w: Exports, dstAt: number, srcAt: number, y: Operand, k: number): void {
  const { data, rows, rowStride, kStride, groups = 1, groupStride = 0 } = y
  const layout = `${rows}/${rowStride}/${kStride}/${groups}/${groupStride}/${k}`
  const seen = panels.get(data)
  const length = tiles(rows) * WASM_TILE * k
  if (seen?.layout === layout && seen.panel)
    return new Float64Array(w.memory.buffer, dstAt, length).set(seen.panel)
  pack(w, dstAt, srcAt, y, k)
  if (seen?.layout === layout) seen.panel = new Float64Array(w.memory.buffer, dstAt, length).slice()
  else panels.set(data, { layout })
}

/**
 * Packs x [m, k] and y [n, k] for tileSums; undefined where the wasm kernels are not available.
 * With `xRange`, row tile t of x is packed over xRange(t) only: it must not be summed elsewhere.
 */
export function packMatmul(
  x: Operand,
  y: Operand,
  k: number,
  xRange?: (tile: number) => Range,
): PackedMatmul | undefined {
  if (!wasm) return undefined
  const w = wasm
  const [mt, nt] = [tiles(x.rows), tiles(y.rows)]
  const [xLen, yLen] = [mt * WASM_TILE * k, nt * WASM_TILE * k]
  const outLen = mt * nt * WASM_TILE * WASM_TILE
  const [m, n] = [x.rows, y.rows]
  // after the sums: the exponents, the rounded output (i32), and the operands staged for packing
  const expsAt = 8 * (xLen + yLen + outLen)
  const roundedAt = expsAt + 8 * Math.ceil((m + n) / 2)
  const srcAt = roundedAt + 8 * Math.ceil((m * n) / 2)
  const buffer = reserve(w, srcAt + Math.max(packBytes(x, k), packBytes(y, k)))
  pack(w, 0, srcAt, x, k, xRange)
  packRemembered(w, 8 * xLen, srcAt, y, k)
  const f = new Float64Array(buffer, 0, xLen + yLen + outLen)
  const outAt = 8 * (xLen + yLen)
  const out = f.subarray(xLen + yLen)
  const stride = nt * WASM_TILE
  const exps = new Int32Array(buffer, expsAt, m + n)
  const heap = new Int32Array(buffer)
  // the exponents last staged: a tiled product rounds tile after tile with the same ones
  let staged: [Int32Array, Int32Array] | undefined
  const sums = (from: number, to: number, tile?: Pick<TileRows, 'index' | 'cols'>): Float64Array => {
    if (!tile) w.tileSums(0, 8 * xLen, outAt, mt, nt, k, from, to, stride)
    else {
      const rowAt = tile.index * WASM_TILE
      // one row tile: its panel, its rows of the sums, the column tiles it needs
      w.tileSums(
        8 * rowAt * k,
        8 * xLen,
        outAt + 8 * rowAt * stride,
        1,
        tiles(tile.cols),
        k,
        from,
        to,
        stride,
      )
    }
    return out
  }
  return {
    stride,
    sums,
    rounded(
      aExps: Int32Array,
      bExps: Int32Array,
      outExp: number,
      result: Int32Array,
      tile?: PlacedTile,
    ): void {
      if (staged?.[0] !== aExps || staged[1] !== bExps) {
        exps.set(aExps.subarray(0, m))
        exps.set(bExps.subarray(0, n), m)
        staged = [aExps, bExps]
      }
      if (!tile) {
        sums(0, k)
        w.roundSums(outAt, stride, roundedAt, m, n, expsAt, expsAt + 4 * m, outExp)
        result.set(new Int32Array(buffer, roundedAt, m * n))
        return
      }
      const rowAt = tile.index * WASM_TILE
      const rows = Math.min(WASM_TILE, m - rowAt)
      const cols = tile.cols
      sums(tile.from, tile.to, tile)
      w.roundSums(
        outAt + 8 * rowAt * stride,
        stride,
        roundedAt,
        rows,
        cols,
        expsAt + 4 * rowAt,
        expsAt + 4 * m,
        outExp,
      )
      for (let r = 0, from = roundedAt / 4, to = tile.at + rowAt * tile.stride; r < rows; r++) {
        result.set(heap.subarray(from, from + cols), to)
        from += cols
        to += tile.stride
      }
    },
  }
}

/** The exp kernel's domain: |d·log2e| < 2^63 − 2^60 and shifts to 60, so a product plus its rounding bias stays in i64. */
const EXP_MAX_SHIFT = 60
const EXP_MAX_LOG2E = 2 ** 31 - 2 ** 28

/**
 * e[j] = expFixed(x[from + j] − max, xExp, outExp, log2e) for j < count, and Σ e; undefined where
 * the kernel does not cover the arguments (the caller then runs expFixed).
 */
export function expRowWasm(
  x: Int32Array,
  from: number,
  count: number,
  max: number,
  xExp: number,
  outExp: number,
  log2e: number,
): { e: Float64Array; sum: number } | undefined {
  const s = 6 - xExp
  if (!wasm || s < 0 || s > EXP_MAX_SHIFT || Math.abs(log2e) >= EXP_MAX_LOG2E) return undefined
  const outAt = 8 * Math.ceil(count / 2)
  const buffer = reserve(wasm, outAt + 8 * count)
  new Int32Array(buffer, 0, count).set(x.subarray(from, from + count))
  const sum = wasm.expRow(0, outAt, count, max, s, outExp, log2e)
  return { e: new Float64Array(buffer, outAt, count), sum }
}

/**
 * softmaxRowTs on every row of x [valid.length, n] at exponent xExp into out (Q30): row i takes its
 * first valid[i] columns and is 0 past them; false where the kernel does not cover the arguments
 * (the caller then runs the TS definition).
 */
export function softmaxRowsWasm(
  x: Int32Array,
  n: number,
  valid: Int32Array,
  xExp: number,
  log2e: number,
  out: Int32Array,
): boolean {
  const s = 6 - xExp
  if (!wasm || s < 0 || s > EXP_MAX_SHIFT || Math.abs(log2e) >= EXP_MAX_LOG2E || n > 2 ** 22) return false
  for (const v of valid) if (v < 0 || v > n) return false
  const scratchAt = 8 * Math.ceil(x.length / 2)
  const { at, buffer } = stage(wasm, [x, valid], scratchAt + 8 * n)
  wasm.softmaxRows(at[0]!, at[1]!, at[2]!, at[2]! + scratchAt, valid.length, n, s, log2e)
  out.set(new Int32Array(buffer, at[2]!, x.length))
  return true
}

/** Whether expWasm covers these arguments (else expFixed runs its TS definition). */
export function expInDomain(x: number, xExp: number, log2e: number): boolean {
  const s = 6 - xExp
  return (
    wasm !== undefined &&
    s >= 0 &&
    s <= EXP_MAX_SHIFT &&
    Math.abs(log2e) < EXP_MAX_LOG2E &&
    Math.abs(x) < 2 ** 32
  )
}

/** expFixed of one value by the kernel, for arguments in expInDomain. */
export function expWasm(x: number, xExp: number, outExp: number, log2e: number): number {
  return wasm!.exp(x, 6 - xExp, outExp, log2e)
}

/** Copies each array into wasm memory one after another (8-byte aligned); returns their byte offsets. */
export function stage(
  w: { readonly memory: WebAssembly.Memory },
  arrays: readonly Int32Array[],
  extraBytes: number,
): { at: number[]; buffer: ArrayBuffer } {
  const at: number[] = []
  let bytes = 0
  for (const a of arrays) {
    at.push(bytes)
    bytes += 8 * Math.ceil(a.length / 2)
  }
  const buffer = reserve(w, bytes + extraBytes)
  arrays.forEach((a, i) => new Int32Array(buffer, at[i], a.length).set(a))
  at.push(bytes)
  return { at, buffer }
}

/**
 * The row wrappers' skeleton: inputs staged, `kernel` run on their offsets (at[inputs.length] is the
 * output's, right after them), and `count` i32 of output copied into out.
 */
export function runStaged(
  w: { readonly memory: WebAssembly.Memory },
  inputs: readonly Int32Array[],
  out: Int32Array,
  count: number,
  kernel: (at: readonly number[]) => void,
): void {
  const { at } = stage(w, inputs, 4 * count)
  kernel(at)
  out.set(new Int32Array(w.memory.buffer, at[inputs.length], count))
}

/**
 * out[i] = sat32(round(a[i]·b[i mod b.length]·2^-s)) (mulRne on i32 operands) for 0 ≤ s ≤ 60;
 * false where the kernel does not cover it.
 */
export function mulRowWasm(a: Int32Array, b: Int32Array, s: number, out: Int32Array): boolean {
  if (!wasm || s < 0 || s > 60 || b.length === 0 || a.length > out.length) return false
  runStaged(wasm, [a, b], out, a.length, (at) =>
    wasm.mulRow(at[0]!, at[1]!, 4 * b.length, at[2]!, a.length, s),
  )
  return true
}

/**
 * out[i] = mulRne(a[i], b[i mod b.length], s), not saturated, for 9 ≤ s ≤ 60 (each |result| < 2^53,
 * exact in f64): products that an exact sum adds up; false where the kernel does not cover it.
 */
export function mulRowExactWasm(a: Int32Array, b: Int32Array, s: number, out: Float64Array): boolean {
  if (!wasm || s < 9 || s > 60 || b.length === 0 || a.length > out.length) return false
  const { at, buffer } = stage(wasm, [a, b], 8 * a.length)
  wasm.mulRowExact(at[0]!, at[1]!, 4 * b.length, at[2]!, a.length, s)
  out.set(new Float64Array(buffer, at[2]!, a.length))
  return true
}

/** sigmoidQ30 of every element of x (at exponent xExp) into out; false where the kernel does not cover it. */
export function sigmoidRowWasm(x: Int32Array, xExp: number, out: Int32Array): boolean {
  const s = 6 - xExp
  if (!wasm || s < 0 || s > EXP_MAX_SHIFT) return false
  runStaged(wasm, [x], out, x.length, (at) => wasm.sigmoidRow(at[0]!, at[1]!, x.length, s))
  return true
}

/**
 * softmaxBackward's centred rows: u = sat32(round((dp·2^guard − Σ round(p·dp·2^(guard−30)))·2^-t)) per
 * row of n; false where the kernel does not cover the shifts.
 */
export function softmaxBackRowsWasm(
  p: Int32Array,
  dp: Int32Array,
  n: number,
  guard: number,
  t: number,
  u: Int32Array,
): boolean {
  if (!wasm || guard < 0 || guard > 21 || t < 0 || t > 60) return false
  runStaged(wasm, [p, dp], u, p.length, (at) =>
    wasm.softmaxBackRows(at[0]!, at[1]!, at[2]!, p.length / n, n, guard, t),
  )
  return true
}

/**
 * Kernels on i32 arrays kept in wasm memory between calls, for a chain of elementwise passes whose
 * exponents each come from the previous pass's maximum: the arrays are copied in once and the result
 * out once, instead of every pass staging its operands and copying its output back. Regions are
 * byte offsets handed out in order (growing the memory as needed, so they outlive any buffer view);
 * an arena is used up by one synchronous chain (any other kernel call reuses the memory from 0). The
 * kernels' domains are the wrappers' above: a call outside returns false and does nothing.
 */
export interface WasmArena {
  /** a copy of a in the arena; its region's offset */
  put(a: Int32Array): number
  /** a region of count i32 */
  alloc(count: number): number
  maxAbs(at: number, count: number): number
  /** mulRowWasm on regions; b holds bCount elements */
  mulRow(a: number, b: number, bCount: number, out: number, count: number, s: number): boolean
  /** softmaxBackRowsWasm on regions of rows × n */
  softmaxBackRows(
    p: number,
    dp: number,
    u: number,
    rows: number,
    n: number,
    guard: number,
    t: number,
  ): boolean
  /** a copy of the region out of the arena */
  read(at: number, count: number): Int32Array
}

export function wasmArena(): WasmArena | undefined {
  if (!wasm) return undefined
  const w = wasm
  let next = 0
  const alloc = (count: number): number => {
    const at = next
    next += 8 * Math.ceil(count / 2)
    reserve(w, next)
    return at
  }
  return {
    put(a) {
      const at = alloc(a.length)
      new Int32Array(w.memory.buffer, at, a.length).set(a)
      return at
    },
    alloc,
    maxAbs: (at, count) => w.maxAbs(at, count),
    mulRow(a, b, bCount, out, count, s) {
      if (s < 0 || s > 60 || bCount === 0) return false
      w.mulRow(a, b, 4 * bCount, out, count, s)
      return true
    },
    softmaxBackRows(p, dp, u, rows, n, guard, t) {
      if (guard < 0 || guard > 21 || t < 0 || t > 60) return false
      w.softmaxBackRows(p, dp, u, rows, n, guard, t)
      return true
    },
    read: (at, count) => new Int32Array(w.memory.buffer, at, count).slice(),
  }
}

/** max|x| (maxAbs) by i32x4 lanes; undefined without the kernels. */
export function maxAbsWasm(x: Int32Array): number | undefined {
  if (!wasm) return undefined
  const { at } = stage(wasm, [x], 0)
  return wasm.maxAbs(at[0]!, x.length)
}
