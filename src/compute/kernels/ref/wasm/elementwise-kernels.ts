/**
 * The twin's second wasm module: elementwise kernels on the first module's memory (kernels.ts), which
 * it imports, so each module stays below the 4 KB a browser main thread may compile synchronously.
 * Each kernel computes the same exact integers as its TS definition (the specification and the
 * fallback); elementwise-kernels.test.ts and the parity suites compare the two.
 *
 * - `addRow`: `add` at aligned exponents, the sum rounded once in i64.
 * - `ropeRows`: RoPE's rotated pairs, both products and their sum rounded in i64.
 */
import { I32, I64, call, code, get, i32, i64, set, wasmModule, type Code, type WasmFunction } from './emit.ts'
import { frame, loadI32, rneVar, sat, step, whileLoop } from './bytecode.ts'
import { stage, wasmMemory } from './kernels.ts'

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
    get(half),
    I32.const(4),
    I32.mul,
    set(half),
    get(width),
    I32.const(4),
    I32.mul,
    set(width),
    get(x),
    get(rows),
    get(width),
    I32.mul,
    I32.add,
    set(xEnd),
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
}

/** The module's bytes (ropeStore is function ROPE_STORE: ropeRows calls it by index). */
export function elementwiseKernelBytes(): Uint8Array<ArrayBuffer> {
  return wasmModule([addRowFunction(), ropeRowsFunction(), ropeStoreFunction()], 'imported')
}

function instantiate(): (Exports & { readonly memory: WebAssembly.Memory }) | undefined {
  if (!wasmMemory) return undefined
  try {
    const module = new WebAssembly.Module(elementwiseKernelBytes())
    const exports = new WebAssembly.Instance(module, { env: { memory: wasmMemory } }).exports
    return { ...(exports as unknown as Exports), memory: wasmMemory }
  } catch {
    // a runtime that refuses synchronous compilation here: the TS definitions run, with the same bits
    return undefined
  }
}

const wasm = instantiate()

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
  const { at, buffer } = stage(wasm, [a, b], 4 * a.length)
  wasm.addRow(at[0]!, at[1]!, at[2]!, a.length, sa, sb, s)
  out.set(new Int32Array(buffer, at[2]!, a.length))
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
  const { at, buffer } = stage(wasm, [x, cos, sin], 4 * x.length)
  wasm.ropeRows(at[0]!, at[1]!, at[2]!, at[3]!, x.length / width, width, half)
  out.set(new Int32Array(buffer, at[3]!, x.length))
  return true
}
