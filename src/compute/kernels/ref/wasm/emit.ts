/**
 * A minimal WebAssembly binary emitter: the twin's wasm kernels (kernels.ts) are written as bytecode
 * here and assembled at import time, so the .wasm bytes are always built from this source and never
 * committed. Hand-made rather than binaryen or wabt: the kernels need a few dozen opcodes, the module
 * is a few kilobytes, and node_modules is shared with the main checkout (a 10 MB toolchain to emit
 * 2 KB is not a good trade). Opcode numbers are those of the WebAssembly core and SIMD specifications.
 */

export type Code = readonly number[]

/** Value types. */
export const i32 = 0x7f
export const i64 = 0x7e
export const f64 = 0x7c
export const v128 = 0x7b
export type ValType = typeof i32 | typeof i64 | typeof f64 | typeof v128

function uleb(n: number): number[] {
  const out: number[] = []
  do {
    let byte = n & 0x7f
    n = Math.floor(n / 128)
    if (n > 0) byte |= 0x80
    out.push(byte)
  } while (n > 0)
  return out
}

function sleb(value: number | bigint): number[] {
  let n = BigInt(value)
  const out: number[] = []
  for (;;) {
    const byte = Number(n & 0x7fn)
    n >>= 7n
    const done = (n === 0n && (byte & 0x40) === 0) || (n === -1n && (byte & 0x40) !== 0)
    out.push(done ? byte : byte | 0x80)
    if (done) return out
  }
}

/** Memory access immediate: alignment (log2 bytes) and a static byte offset. */
const memarg = (align: number, offset: number): number[] => [align, ...uleb(offset)]
/** A SIMD (0xfd-prefixed) instruction with its immediates. */
export const simdOp = (op: number, ...imm: number[]): number[] => [0xfd, ...uleb(op), ...imm]
const simd = simdOp

/** Structured control flow; every block here is typed void (0x40). */
export const block: Code = [0x02, 0x40]
export const loop: Code = [0x03, 0x40]
export const if_: Code = [0x04, 0x40]
export const else_: Code = [0x05]
export const end: Code = [0x0b]
export const br = (depth: number): Code => [0x0c, ...uleb(depth)]
export const brIf = (depth: number): Code => [0x0d, ...uleb(depth)]
export const ret: Code = [0x0f]
export const call = (index: number): Code => [0x10, ...uleb(index)]
export const select: Code = [0x1b]

export const get = (local: number): Code => [0x20, ...uleb(local)]
export const set = (local: number): Code => [0x21, ...uleb(local)]
export const tee = (local: number): Code => [0x22, ...uleb(local)]

export const I32 = {
  const: (n: number): Code => [0x41, ...sleb(n)],
  load: (offset = 0): Code => [0x28, ...memarg(2, offset)],
  store: (offset = 0): Code => [0x36, ...memarg(2, offset)],
  eqz: [0x45],
  eq: [0x46],
  ne: [0x47],
  ltS: [0x48],
  gtS: [0x4a],
  leS: [0x4c],
  geS: [0x4e],
  add: [0x6a],
  sub: [0x6b],
  mul: [0x6c],
  and: [0x71],
  or: [0x72],
  shl: [0x74],
  shrS: [0x75],
  divU: [0x6e],
  wrapI64: [0xa7],
} as const satisfies Record<string, Code | ((...a: number[]) => Code)>

export const I64 = {
  const: (n: number | bigint): Code => [0x42, ...sleb(n)],
  load: (offset = 0): Code => [0x29, ...memarg(3, offset)],
  store: (offset = 0): Code => [0x37, ...memarg(3, offset)],
  eqz: [0x50],
  eq: [0x51],
  ne: [0x52],
  ltS: [0x53],
  gtS: [0x55],
  leS: [0x57],
  geS: [0x59],
  clz: [0x79],
  add: [0x7c],
  sub: [0x7d],
  mul: [0x7e],
  and: [0x83],
  or: [0x84],
  shl: [0x86],
  shrS: [0x87],
  divU: [0x80],
  extendI32S: [0xac],
  extendI32U: [0xad],
  truncF64S: [0xb0],
} as const satisfies Record<string, Code | ((...a: number[]) => Code)>

export const F64 = {
  const: (x: number): Code => [0x44, ...new Uint8Array(Float64Array.of(x).buffer)],
  load: (offset = 0): Code => [0x2b, ...memarg(3, offset)],
  store: (offset = 0): Code => [0x39, ...memarg(3, offset)],
  /** round to the nearest integer, ties to even */
  nearest: [0x9e],
  add: [0xa0],
  mul: [0xa2],
  min: [0xa4],
  max: [0xa5],
  convertI32S: [0xb7],
  convertI64S: [0xb9],
  reinterpretI64: [0xbf],
  /** to i32, saturating (NaN → 0) */
  truncSatToI32S: [0xfc, 0x02],
} as const satisfies Record<string, Code | ((...a: number[]) => Code)>

export const V128 = {
  load: (offset = 0): Code => simd(0x00, ...memarg(4, offset)),
  load64Splat: (offset = 0): Code => simd(0x0a, ...memarg(3, offset)),
  store: (offset = 0): Code => simd(0x0b, ...memarg(4, offset)),
  zero: simd(0x0c, ...new Array<number>(16).fill(0)),
  /** one 32- or 64-bit element into lane 0, the other lanes 0 */
  load32Zero: (offset = 0): Code => simd(0x5c, ...memarg(2, offset)),
  load64Zero: (offset = 0): Code => simd(0x5d, ...memarg(3, offset)),
  /** lane `lane` of the vector stored as one 32- or 64-bit element */
  store32Lane: (lane: number, offset = 0): Code => simd(0x5a, ...memarg(2, offset), lane),
  store64Lane: (lane: number, offset = 0): Code => simd(0x5b, ...memarg(3, offset), lane),
} as const satisfies Record<string, Code | ((...a: number[]) => Code)>

export const F64x2 = {
  splat: simd(0x14),
  extractLane: (lane: number): Code => simd(0x21, lane),
  /** i32 lanes 0 and 1 to f64 */
  convertLowI32x4S: simd(0xfe),
  add: simd(0xf0),
  mul: simd(0xf2),
  min: simd(0xf4),
  max: simd(0xf5),
  /** round to the nearest integer, ties to even */
  nearest: simd(0x94),
} as const satisfies Record<string, Code | ((...a: number[]) => Code)>

export const I32x4 = {
  splat: simd(0x11),
  add: simd(0xae),
  minS: simd(0xb6),
  maxS: simd(0xb8),
  /** both f64 lanes to i32 (NaN → 0, saturating), into lanes 0 and 1; lanes 2 and 3 are 0 */
  truncSatF64x2SZero: simd(0xfc),
} as const satisfies Record<string, Code>

export const I64x2 = {
  extendLowI32x4S: simd(0xc7),
  shl: simd(0xcb),
} as const satisfies Record<string, Code>

/** Concatenates instruction sequences into one body. */
export function code(...parts: Code[]): Code {
  return parts.flat()
}

export interface WasmFunction {
  readonly name: string
  readonly params: readonly ValType[]
  readonly results: readonly ValType[]
  /** Locals after the parameters (numbered from params.length). */
  readonly locals: readonly ValType[]
  readonly body: Code
  /** Called by the module's other functions only: not exported. */
  readonly internal?: boolean
}

const vec = (items: readonly (readonly number[])[]): number[] => [...uleb(items.length), ...items.flat()]
const section = (id: number, bytes: readonly number[]): number[] => [id, ...uleb(bytes.length), ...bytes]
const utf8 = (s: string): number[] => {
  const bytes = [...new TextEncoder().encode(s)]
  return [...uleb(bytes.length), ...bytes]
}

/**
 * A module of functions (exported by name unless internal) and one growable memory: its own of
 * `pages` × 64 KiB, exported as "memory", or `'imported'` as env.memory (a second module on the
 * first's memory). Functions of one signature share its type: bytes count here.
 */
export function wasmModule(
  functions: readonly WasmFunction[],
  memory: number | 'imported',
): Uint8Array<ArrayBuffer> {
  const signature = (f: WasmFunction): number[] => [
    0x60,
    ...vec(f.params.map((t) => [t])),
    ...vec(f.results.map((t) => [t])),
  ]
  const types = [...new Set(functions.map((f) => signature(f).join()))]
  const typeOf = (f: WasmFunction): number => types.indexOf(signature(f).join())
  const bodies = functions.map((f) => {
    const locals = vec(f.locals.map((t) => [1, t]))
    const body = [...locals, ...f.body, ...end]
    return [...uleb(body.length), ...body]
  })
  const exported = functions.flatMap((f, i) => (f.internal ? [] : [[...utf8(f.name), 0x00, ...uleb(i)]]))
  const imported = memory === 'imported'
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types.map((t) => t.split(',').map(Number)))),
    // a memory import (kind 2) of at least one page
    ...(imported ? section(2, vec([[...utf8('env'), ...utf8('memory'), 0x02, 0x00, 1]])) : []),
    ...section(3, vec(functions.map((f) => uleb(typeOf(f))))),
    ...(imported ? [] : section(5, vec([[0x00, ...uleb(memory)]]))),
    ...section(7, vec(imported ? exported : [[...utf8('memory'), 0x02, 0], ...exported])),
    ...section(10, vec(bodies)),
  ])
}
