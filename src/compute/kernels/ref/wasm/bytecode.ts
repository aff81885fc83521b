/**
 * Bytecode pieces the twin's wasm modules share (kernels.ts, elementwise-kernels.ts): locals, loops,
 * pointer steps and the i64 round-half-even and saturation every kernel rounds with.
 */
import {
  F64,
  I32,
  I64,
  block,
  br,
  brIf,
  code,
  end,
  get,
  loop,
  select,
  set,
  tee,
  type Code,
  type ValType,
} from './emit.ts'
import { I32_MAX } from '../rounding.ts'

/** Locals numbered in declaration order after the parameters. */
export function frame(params: readonly ValType[]) {
  const locals: ValType[] = []
  const local = (t: ValType): number => params.length + locals.push(t) - 1
  return { locals, local }
}

/** while (cond) { body }: the loop's exit test first, as a block around a loop. */
export const whileLoop = (cond: Code, body: Code): Code =>
  code(block, loop, cond, I32.eqz, brIf(1), body, br(0), end, end)

/**
 * Round-half-even of p·2^-s for an i64 p and 1 ≤ s ≤ 60 with |p| + 2^s < 2^63: (p + 2^(s−1) − 1 +
 * ⌊p/2^s⌋ mod 2) >> s. The arithmetic shift floors negative values too, so it is exact for any sign.
 */
export const rneI64 = (p: number, s: Code): Code =>
  code(
    get(p),
    I64.const(1),
    s,
    I64.const(1),
    I64.sub,
    I64.shl,
    I64.const(1),
    I64.sub,
    I64.add,
    get(p),
    s,
    I64.shrS,
    I64.const(1),
    I64.and,
    I64.add,
    s,
    I64.shrS,
  )

/** Clamps the i64 local v to the symmetric i32 range (sat32). */
export const sat = (v: number): Code =>
  code(
    I64.const(I32_MAX),
    get(v),
    get(v),
    I64.const(I32_MAX),
    I64.gtS,
    select,
    set(v),
    I64.const(-I32_MAX),
    get(v),
    get(v),
    I64.const(-I32_MAX),
    I64.ltS,
    select,
    set(v),
  )

/** rneI64 for a variable shift 0 ≤ s ≤ 60 held in an i64 local (s = 0 is p itself). */
export const rneVar = (p: number, s: number): Code => code(get(p), rneI64(p, get(s)), get(s), I64.eqz, select)

/** i32 loads and stores through a pointer local, then the pointer steps on. */
export const loadI32 = (ptr: number): Code => code(get(ptr), I32.load(0), I64.extendI32S)
export const step = (ptr: number, bytes: number): Code => code(get(ptr), I32.const(bytes), I32.add, set(ptr))

/** v ← 4·v: an element count held as bytes from here on. */
export const toBytes = (v: number): Code => code(get(v), I32.const(4), I32.mul, set(v))

/** end ← ptr + rows·rowBytes: the byte just past a [rows, ·] block whose rows are rowBytes long. */
export const endAfter = (ptr: number, rows: number, rowBytes: number, end: number): Code =>
  code(get(ptr), get(rows), get(rowBytes), I32.mul, I32.add, set(end))

/**
 * sat32(round-half-even(v·2^-shift)) as an i32 on the stack, for an exact integer v (|v| ≤ 2^53) in an
 * f64 local and any i32 shift: v times the power of two 2^-shift built from its exponent bits (exact),
 * nearest (ties to even), clamped to ±(2^31 − 1). A factor below 2^-1022 is built as 0 and one above
 * 2^1023 as ∞, so the value rounds to 0 or saturates, and 0·∞ (a NaN) truncates to 0. `e` is an i32
 * scratch local.
 */
export const roundScaled = (v: number, shift: number, e: number): Code =>
  code(
    get(v),
    I32.const(1023),
    get(shift),
    I32.sub,
    tee(e),
    I32.const(0),
    get(e),
    I32.const(0),
    I32.gtS,
    select,
    tee(e),
    I32.const(2047),
    get(e),
    I32.const(2047),
    I32.ltS,
    select,
    I64.extendI32U,
    I64.const(52),
    I64.shl,
    F64.reinterpretI64,
    F64.mul,
    F64.nearest,
    F64.const(I32_MAX),
    F64.min,
    F64.const(-I32_MAX),
    F64.max,
    F64.truncSatToI32S,
  )
