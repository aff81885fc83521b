/**
 * The twin's second wasm module: elementwise kernels on the first module's memory (kernels.ts), which
 * it imports, so each module stays below the 4 KB a browser main thread may compile synchronously.
 * Each kernel computes the same exact integers as its TS definition (the specification and the
 * fallback); elementwise-kernels.test.ts and the parity suites compare the two.
 *
 * - `addRow`: `add` at aligned exponents, the sum rounded once in i64.
 * - `ropeRows`: RoPE's rotated pairs, both products and their sum rounded in i64.
 * - `scaleRows`: every row times its own scalar at its own shift (RMSNorm's x̂ and dx), one call for
 *   all rows where a row-by-row `mulRow` paid a call and a staging per row.
 * - `centerRows`: RMSNorm backward's w = v − x̂·mean(v ⊙ x̂), each row with its own mean, in one call.
 * - `narrowRows`: every row to int16 mantissas with its own shift (attention's q and k, the whole KV
 *   cache every decode step).
 * - `swigluBack`: SwiGLU's backward in one pass (silu, silu', both products), where the TS path ran
 *   five elementwise kernels and two JS loops, each staging its tensors in and out.
 */
import {
  I32,
  I64,
  call,
  code,
  get,
  i32,
  i64,
  select,
  set,
  tee,
  wasmModule,
  type Code,
  type WasmFunction,
} from './emit.ts'
import { endAfter, frame, loadI32, rneVar, sat, step, toBytes, whileLoop } from './bytecode.ts'
import { onKernelMemory, runStaged, stage } from './kernels.ts'

/**
 * (a, b, out, count, sa, sb, s): out[i] = sat32(round((a[i]·2^sa + b[i]·2^sb)·2^-s)) for i32 a and b,
 * 0 ≤ sa, sb ≤ 30 and 0 ≤ s ≤ 60 (the aligned sum and its rounding bias stay below 2^63): `add` at
 * any pair of exponents.
 */
function addRowFunction(): WasmFunction {
  const params = [i32, i32, i32, i32, i32, i32, i32] as const
  const [a, b, out, count, sa, sb, s] = [0, 1, 2, 3, 4, 5, 6]
  const { locals, local } = frame(params)
  const end_ = local(i32)
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
    whileLoop(
      code(get(a), get(end_), I32.ltS),
      code(
        loadI32(a),
        get(sa),
        I64.extendI32S,
        I64.shl,
        loadI32(b),
        get(sb),
        I64.extendI32S,
        I64.shl,
        I64.add,
        set(p),
        rneVar(p, s64),
        set(p),
        sat(p),
        get(out),
        get(p),
        I32.wrapI64,
        I32.store(0),
        step(a, 4),
        step(b, 4),
        step(out, 4),
      ),
    ),
  )
  return { name: 'addRow', params, results: [], locals, body }
}

/**
 * (x, r, s, out, rows, cols): out[i, j] = sat32(round(x[i, j]·r[i]·2^-s[i])) for i32 x and r and
 * 0 ≤ s[i] ≤ 60: mulRne of each row by its own scalar, saturated.
 */
function scaleRowsFunction(): WasmFunction {
  const params = [i32, i32, i32, i32, i32, i32] as const
  const [x, r, s, out, rows, cols] = [0, 1, 2, 3, 4, 5]
  const { locals, local } = frame(params)
  const [xEnd, rowEnd] = [local(i32), local(i32)]
  const [p, rv, sv] = [local(i64), local(i64), local(i64)]
  const body = code(
    toBytes(cols),
    endAfter(x, rows, cols, xEnd),
    whileLoop(
      code(get(x), get(xEnd), I32.ltS),
      code(
        loadI32(r),
        set(rv),
        loadI32(s),
        set(sv),
        get(x),
        get(cols),
        I32.add,
        set(rowEnd),
        whileLoop(
          code(get(x), get(rowEnd), I32.ltS),
          code(
            loadI32(x),
            get(rv),
            I64.mul,
            set(p),
            rneVar(p, sv),
            set(p),
            sat(p),
            get(out),
            get(p),
            I32.wrapI64,
            I32.store(0),
            step(x, 4),
            step(out, 4),
          ),
        ),
        step(r, 4),
        step(s, 4),
      ),
    ),
  )
  return { name: 'scaleRows', params, results: [], locals, body }
}

/**
 * (v, xhat, mean, st, out, rows, cols, guard, s): out[i, j] = sat32(round((v[i, j]·2^guard −
 * round(xhat[i, j]·mean[i]·2^-st[i]))·2^-s)) for i32 v, xhat and mean, 0 ≤ guard ≤ 30, 0 ≤ st[i] ≤ 60
 * and 0 ≤ s ≤ 60: RMSNorm backward's centred rows, their product unsaturated before the difference.
 */
function centerRowsFunction(): WasmFunction {
  const params = [i32, i32, i32, i32, i32, i32, i32, i32, i32] as const
  const [v, xhat, mean, st, out, rows, cols, guard, s] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
  const { locals, local } = frame(params)
  const [vEnd, rowEnd] = [local(i32), local(i32)]
  const [p, m, sh, g, s64] = [local(i64), local(i64), local(i64), local(i64), local(i64)]
  const body = code(
    toBytes(cols),
    endAfter(v, rows, cols, vEnd),
    get(guard),
    I64.extendI32S,
    set(g),
    get(s),
    I64.extendI32S,
    set(s64),
    whileLoop(
      code(get(v), get(vEnd), I32.ltS),
      code(
        loadI32(mean),
        set(m),
        loadI32(st),
        set(sh),
        get(v),
        get(cols),
        I32.add,
        set(rowEnd),
        whileLoop(
          code(get(v), get(rowEnd), I32.ltS),
          code(
            loadI32(xhat),
            get(m),
            I64.mul,
            set(p),
            loadI32(v),
            get(g),
            I64.shl,
            rneVar(p, sh),
            I64.sub,
            set(p),
            rneVar(p, s64),
            set(p),
            sat(p),
            get(out),
            get(p),
            I32.wrapI64,
            I32.store(0),
            step(v, 4),
            step(xhat, 4),
            step(out, 4),
          ),
        ),
        step(mean, 4),
        step(st, 4),
      ),
    ),
  )
  return { name: 'centerRows', params, results: [], locals, body }
}

/**
 * (gate, up, dy, sig, dUp, dGate, count, shU, shT, shX, shG): SwiGLU's backward per element from the
 * forward's σ(gate) in Q30 — s = sat32(rne(gate·σ, 30)) (silu), dUp = sat32(rne(dy·s, shU)), t =
 * sat32(rne(dy·up, shT)), q = rne(σ·(2^30 − σ), 30), silu' = wrap32(σ + rne(gate·q, shX)), dGate =
 * sat32(rne(t·silu', shG)); every shift in 0–60.
 */
function swigluBackFunction(): WasmFunction {
  const params = [i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32] as const
  const [gate, up, dy, sig, dUp, dGate, count, shU, shT, shX, shG] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
  const { locals, local } = frame(params)
  const end_ = local(i32)
  const [x, sg, d, p, t, u, t30] = [
    local(i64),
    local(i64),
    local(i64),
    local(i64),
    local(i64),
    local(i64),
    local(i64),
  ]
  const [su, st, sx, sgd] = [local(i64), local(i64), local(i64), local(i64)]
  const widen = (from: number, to: number): Code => code(get(from), I64.extendI32S, set(to))
  // p = rne(a·b, shift) (shift a local), then saturated when asked
  const product = (a: Code, b: Code, shift: number, saturate: boolean): Code =>
    code(a, b, I64.mul, set(p), rneVar(p, shift), set(p), saturate ? sat(p) : [])
  const storeP = (ptr: number): Code => code(get(ptr), get(p), I32.wrapI64, I32.store(0))
  const body = code(
    widen(shU, su),
    widen(shT, st),
    widen(shX, sx),
    widen(shG, sgd),
    I64.const(30),
    set(t30),
    get(gate),
    get(count),
    I32.const(4),
    I32.mul,
    I32.add,
    set(end_),
    whileLoop(
      code(get(gate), get(end_), I32.ltS),
      code(
        loadI32(gate),
        set(x),
        loadI32(sig),
        set(sg),
        loadI32(dy),
        set(d),
        // dUp = dy·silu(gate)
        product(get(x), get(sg), t30, true),
        product(get(d), get(p), su, true),
        storeP(dUp),
        // t = dy·up
        product(get(d), loadI32(up), st, true),
        get(p),
        set(t),
        // silu' = σ + gate·σ(1 − σ), kept as an i32
        product(get(sg), code(I64.const(2 ** 30), get(sg), I64.sub), t30, false),
        product(get(x), get(p), sx, false),
        get(p),
        get(sg),
        I64.add,
        I32.wrapI64,
        I64.extendI32S,
        set(u),
        product(get(t), get(u), sgd, true),
        storeP(dGate),
        step(gate, 4),
        step(up, 4),
        step(dy, 4),
        step(sig, 4),
        step(dUp, 4),
        step(dGate, 4),
      ),
    ),
  )
  return { name: 'swigluBack', params, results: [], locals, body }
}

/**
 * (x, out, shifts, rows, cols): narrowRows' integer part. Per row, s = fitShift(max|x|, 2^15 − 1) —
 * the smallest s ≥ 0 with round(max|x|·2^-s) ≤ 2^15 − 1 — into shifts, and out[j] = round(x[j]·2^-s).
 */
function narrowRowsFunction(): WasmFunction {
  const params = [i32, i32, i32, i32, i32] as const
  const [x, out, shifts, rows, cols] = [0, 1, 2, 3, 4]
  const { locals, local } = frame(params)
  const [xEnd, rowEnd, p] = [local(i32), local(i32), local(i32)]
  const [v, m, sh] = [local(i64), local(i64), local(i64)]
  const body = code(
    toBytes(cols),
    endAfter(x, rows, cols, xEnd),
    whileLoop(
      code(get(x), get(xEnd), I32.ltS),
      code(
        get(x),
        get(cols),
        I32.add,
        set(rowEnd),
        // m = max|x| over the row (−2^31 included)
        I64.const(0),
        set(m),
        get(x),
        set(p),
        whileLoop(
          code(get(p), get(rowEnd), I32.ltS),
          code(
            loadI32(p),
            tee(v),
            I64.const(0),
            get(v),
            I64.sub,
            get(v),
            I64.const(0),
            I64.gtS,
            select,
            tee(v),
            get(m),
            get(v),
            get(m),
            I64.gtS,
            select,
            set(m),
            step(p, 4),
          ),
        ),
        // s = max(0, bitLength(m) − 15), one more when m rounds up past 2^15 − 1
        I64.const(49),
        get(m),
        I64.clz,
        I64.sub,
        tee(sh),
        I64.const(0),
        get(sh),
        I64.const(0),
        I64.gtS,
        select,
        set(sh),
        get(sh),
        rneVar(m, sh),
        I64.const(32767),
        I64.gtS,
        I64.extendI32U,
        I64.add,
        set(sh),
        get(shifts),
        get(sh),
        I32.wrapI64,
        I32.store(0),
        step(shifts, 4),
        whileLoop(
          code(get(x), get(rowEnd), I32.ltS),
          code(
            loadI32(x),
            set(v),
            get(out),
            rneVar(v, sh),
            I32.wrapI64,
            I32.store(0),
            step(x, 4),
            step(out, 4),
          ),
        ),
      ),
    ),
  )
  return { name: 'narrowRows', params, results: [], locals, body }
}

/** RoPE's guard bits: each rotated product is rounded by 2^-(30 − ROPE_GUARD), their sum by 2^-ROPE_GUARD. */
export const ROPE_GUARD = 20

/** rneI64 by a constant shift 1 ≤ s ≤ 62, its bias folded into one constant. */
const rneBy = (p: number, s: number): Code =>
  code(
    get(p),
    I64.const(2 ** (s - 1) - 1),
    I64.add,
    get(p),
    I64.const(s),
    I64.shrS,
    I64.const(1),
    I64.and,
    I64.add,
    I64.const(s),
    I64.shrS,
  )

/** The index of ropeStore in the module: ropeRows calls it twice per pair. */
const ROPE_STORE = 2

/** (ptr, u): stores sat32(rne(u, ROPE_GUARD)) as i32 at ptr. */
function ropeStoreFunction(): WasmFunction {
  const params = [i32, i64] as const
  const [ptr, u] = [0, 1]
  const { locals } = frame(params)
  const body = code(rneBy(u, ROPE_GUARD), set(u), sat(u), get(ptr), get(u), I32.wrapI64, I32.store(0))
  return { name: 'ropeStore', params, results: [], locals, body, internal: true }
}

/**
 * (x, cos, sin, out, rows, width, half): rotary embedding of x [rows, width] in heads of 2·half,
 * rotate-half layout, with cos and sin [rows, half] in Q30 (sin signed by the direction): for the pair
 * (a, b) = (x[i], x[i + half]) of a head, out[i] = sat32(rne(rne(a·c) − rne(b·s))) and out[i + half] =
 * sat32(rne(rne(b·c) + rne(a·s))), the products by 2^-(30 − ROPE_GUARD), the sums by 2^-ROPE_GUARD.
 */
function ropeRowsFunction(): WasmFunction {
  const params = [i32, i32, i32, i32, i32, i32, i32] as const
  const [x, cos, sin, out, rows, width, half] = [0, 1, 2, 3, 4, 5, 6]
  const { locals, local } = frame(params)
  const [xEnd, rowEnd, pa, pEnd, pc, ps] = [
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
    local(i32),
  ]
  const [va, vb, vc, vs, t] = [local(i64), local(i64), local(i64), local(i64), local(i64)]
  const product = (m: number, n: number): Code =>
    code(get(m), get(n), I64.mul, set(t), rneBy(t, 30 - ROPE_GUARD))
  // the output address of the element at pa + offset: out − x + pa + offset
  const outAt = (offset: Code): Code => code(get(pa), offset, I32.add, get(out), I32.add, get(x), I32.sub)
  const body = code(
    // half and width in bytes from here on
    toBytes(half),
    toBytes(width),
    endAfter(x, rows, width, xEnd),
    get(x),
    set(pa),
    whileLoop(
      code(get(pa), get(xEnd), I32.ltS),
      code(
        get(pa),
        get(width),
        I32.add,
        set(rowEnd),
        whileLoop(
          code(get(pa), get(rowEnd), I32.ltS),
          code(
            // one head: its first half paired with its second, the row's angles from the start
            get(pa),
            get(half),
            I32.add,
            set(pEnd),
            get(cos),
            set(pc),
            get(sin),
            set(ps),
            whileLoop(
              code(get(pa), get(pEnd), I32.ltS),
              code(
                loadI32(pa),
                set(va),
                get(pa),
                get(half),
                I32.add,
                I32.load(0),
                I64.extendI32S,
                set(vb),
                loadI32(pc),
                set(vc),
                loadI32(ps),
                set(vs),
                outAt(I32.const(0)),
                product(va, vc),
                product(vb, vs),
                I64.sub,
                call(ROPE_STORE),
                outAt(get(half)),
                product(vb, vc),
                product(va, vs),
                I64.add,
                call(ROPE_STORE),
                step(pa, 4),
                step(pc, 4),
                step(ps, 4),
              ),
            ),
            get(pa),
            get(half),
            I32.add,
            set(pa),
          ),
        ),
        get(cos),
        get(half),
        I32.add,
        set(cos),
        get(sin),
        get(half),
        I32.add,
        set(sin),
      ),
    ),
  )
  return { name: 'ropeRows', params, results: [], locals, body }
}

interface Exports {
  addRow(a: number, b: number, out: number, count: number, sa: number, sb: number, s: number): void
  ropeRows(x: number, cos: number, sin: number, out: number, rows: number, width: number, half: number): void
  scaleRows(x: number, r: number, s: number, out: number, rows: number, cols: number): void
  centerRows(
    v: number,
    xhat: number,
    mean: number,
    st: number,
    out: number,
    rows: number,
    cols: number,
    guard: number,
    s: number,
  ): void
  narrowRows(x: number, out: number, shifts: number, rows: number, cols: number): void
  swigluBack(
    gate: number,
    up: number,
    dy: number,
    sig: number,
    dUp: number,
    dGate: number,
    count: number,
    shU: number,
    shT: number,
    shX: number,
    shG: number,
  ): void
}

/** The module's bytes (ropeStore is function ROPE_STORE: ropeRows calls it by index). */
export function elementwiseKernelBytes(): Uint8Array<ArrayBuffer> {
  return wasmModule(
    [
      addRowFunction(),
      ropeRowsFunction(),
      ropeStoreFunction(),
      scaleRowsFunction(),
      centerRowsFunction(),
      swigluBackFunction(),
      narrowRowsFunction(),
    ],
    'imported',
  )
}

const wasm = onKernelMemory<Exports>(elementwiseKernelBytes())

/** Whether this module's kernels are in use (false: the TS definitions run). */
export const elementwiseKernels = wasm !== undefined

/**
 * out[i] = sat32(round((a[i]·2^sa + b[i]·2^sb)·2^-s)) (one `add` at aligned exponents); false where the
 * kernel does not cover the shifts (0 ≤ sa, sb ≤ 30, 0 ≤ s ≤ 60).
 */
export function addRowWasm(
  a: Int32Array,
  b: Int32Array,
  sa: number,
  sb: number,
  s: number,
  out: Int32Array,
): boolean {
  if (!wasm || Math.min(sa, sb, s) < 0 || Math.max(sa, sb) > 30 || s > 60) return false
  runStaged(wasm, [a, b], out, a.length, (at) => wasm.addRow(at[0]!, at[1]!, at[2]!, a.length, sa, sb, s))
  return true
}

/**
 * RoPE of x [rows, width] in heads of 2·half with per-row cos and sin [rows, half] (Q30, sin signed
 * by the direction) into out; false without the kernels.
 */
export function ropeRowsWasm(
  x: Int32Array,
  cos: Int32Array,
  sin: Int32Array,
  width: number,
  half: number,
  out: Int32Array,
): boolean {
  if (!wasm) return false
  runStaged(wasm, [x, cos, sin], out, x.length, (at) =>
    wasm.ropeRows(at[0]!, at[1]!, at[2]!, at[3]!, x.length / width, width, half),
  )
  return true
}

/**
 * out[i, j] = sat32(mulRne(x[i, j], r[i], s[i])) over rows of `cols` (each row by its own scalar and
 * shift); false where the kernel does not cover a shift (0 ≤ s[i] ≤ 60).
 */
export function scaleRowsWasm(
  x: Int32Array,
  r: Int32Array,
  s: Int32Array,
  cols: number,
  out: Int32Array,
): boolean {
  if (!wasm || s.some((v) => v < 0 || v > 60)) return false
  runStaged(wasm, [x, r, s], out, x.length, (at) =>
    wasm.scaleRows(at[0]!, at[1]!, at[2]!, at[3]!, r.length, cols),
  )
  return true
}

/**
 * out[i, j] = sat32(rne(v[i, j]·2^guard − mulRne(xhat[i, j], mean[i], st[i]), s)) over rows of `cols`;
 * false where the kernel does not cover the shifts (0 ≤ guard ≤ 30, 0 ≤ st[i] ≤ 60, 0 ≤ s ≤ 60).
 */
export function centerRowsWasm(
  v: Int32Array,
  xhat: Int32Array,
  mean: Int32Array,
  st: Int32Array,
  guard: number,
  s: number,
  out: Int32Array,
): boolean {
  if (!wasm || guard < 0 || guard > 30 || s < 0 || s > 60 || st.some((x) => x < 0 || x > 60)) return false
  runStaged(wasm, [v, xhat, mean, st], out, v.length, (at) =>
    wasm.centerRows(at[0]!, at[1]!, at[2]!, at[3]!, at[4]!, mean.length, v.length / mean.length, guard, s),
  )
  return true
}

/** SwiGLU's backward shifts: dUp's, t's, silu''s gate product's and dGate's. */
export interface SwigluBackShifts {
  readonly up: number
  readonly t: number
  readonly gate: number
  readonly dGate: number
}

/**
 * SwiGLU's backward (swigluBackFunction) into dUp and dGate; false where the kernel does not cover a
 * shift (each in 0–60).
 */
export function swigluBackWasm(
  gate: Int32Array,
  up: Int32Array,
  dy: Int32Array,
  sig: Int32Array,
  shifts: SwigluBackShifts,
  dUp: Int32Array,
  dGate: Int32Array,
): boolean {
  const sh = [shifts.up, shifts.t, shifts.gate, shifts.dGate] as const
  if (!wasm || sh.some((v) => v < 0 || v > 60)) return false
  const { at, buffer } = stage(wasm, [gate, up, dy, sig], 8 * gate.length)
  const n = gate.length
  wasm.swigluBack(at[0]!, at[1]!, at[2]!, at[3]!, at[4]!, at[4]! + 4 * n, n, ...sh)
  dUp.set(new Int32Array(buffer, at[4]!, n))
  dGate.set(new Int32Array(buffer, at[4]! + 4 * n, n))
  return true
}

/**
 * narrowRows' mantissas and per-row shifts of x [rows, cols] into out and shifts; false without the
 * kernels.
 */
export function narrowRowsWasm(x: Int32Array, cols: number, out: Int32Array, shifts: Int32Array): boolean {
  if (!wasm) return false
  const rows = x.length / cols
  const { at, buffer } = stage(wasm, [x], 4 * x.length + 4 * rows)
  const shiftsAt = at[1]! + 4 * x.length
  wasm.narrowRows(at[0]!, at[1]!, shiftsAt, rows, cols)
  out.set(new Int32Array(buffer, at[1]!, x.length))
  shifts.set(new Int32Array(buffer, shiftsAt, rows))
  return true
}
