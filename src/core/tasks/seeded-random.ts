// The tasks' only source of randomness: sfc32 seeded from SHA-256 of a text key. Integer operations
// (Math.imul, >>>) and one exact division by 2^32 give the same draws on every engine and platform;
// Math.random would differ from peer to peer and from run to run.
import { sha256 } from '@noble/hashes/sha2.js'

export class SeededRandom {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(key: string) {
    const digest = sha256(new TextEncoder().encode(key))
    const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength)
    ;[this.a, this.b, this.c, this.d] = [0, 4, 8, 12].map((offset) => view.getUint32(offset)) as [
      number,
      number,
      number,
      number,
    ]
    // sfc32's first outputs are weakly mixed; the customary warm-up discards them.
    for (let i = 0; i < 12; i++) this.nextUint32()
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** A uniform integer in [min, max] (both inclusive; the span must be below 2^32). */
  int(min: number, max: number): number {
    return min + Math.floor((this.nextUint32() / 2 ** 32) * (max - min + 1))
  }

  bool(): boolean {
    return this.nextUint32() >= 2 ** 31
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list')
    return items[this.int(0, items.length - 1)]!
  }
}
