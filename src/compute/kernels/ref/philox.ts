/**
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"): a counter-based
 * generator, so draw i of (seed, step, position) is computed directly, in any order, on any thread.
 * Only 32-bit integer ops; the 32×32→64 multiply is split into 16-bit limbs exactly as WGSL does it.
 */
const M0 = 0xd2511f53
const M1 = 0xcd9e8d57
const W0 = 0x9e3779b9
const W1 = 0xbb67ae85

/** High and low 32 bits of the 64-bit product of two u32. */
export function mulHiLo32(a: number, b: number): [number, number] {
  const al = a & 0xffff
  const ah = a >>> 16
  const bl = b & 0xffff
  const bh = b >>> 16
  const ll = al * bl
  const hl = ah * bl
  const lh = al * bh
  const cross = Math.floor(ll / 65536) + (hl & 0xffff) + lh // < 2^33: exact in a number
  const hi = (ah * bh + Math.floor(hl / 65536) + Math.floor(cross / 65536)) >>> 0
  return [hi, Math.imul(a, b) >>> 0]
}

export type Philox4 = [number, number, number, number]

export function philox4x32(counter: Philox4, key: [number, number]): Philox4 {
  let [c0, c1, c2, c3] = counter.map((x) => x >>> 0) as Philox4
  let [k0, k1] = key.map((x) => x >>> 0) as [number, number]
  for (let round = 0; round < 10; round++) {
    const [hi0, lo0] = mulHiLo32(M0, c0)
    const [hi1, lo1] = mulHiLo32(M1, c2)
    ;[c0, c1, c2, c3] = [(hi1 ^ c1 ^ k0) >>> 0, lo1, (hi0 ^ c3 ^ k1) >>> 0, lo0]
    k0 = (k0 + W0) >>> 0
    k1 = (k1 + W1) >>> 0
  }
  return [c0, c1, c2, c3]
}

/** Where a draw sits: the swarm seed (two u32 words), the training/generation step and the token position. */
export interface DrawKey {
  readonly seed: readonly [number, number]
  readonly step: number
  readonly position: number
}

/** The first u32 of Philox at counter (step, position, stream, 0). */
export function drawU32(key: DrawKey, stream = 0): number {
  return philox4x32([key.step, key.position, stream, 0], [key.seed[0], key.seed[1]])[0]
}
