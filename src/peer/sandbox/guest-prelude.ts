// What the guest sees besides the ECMAScript built-ins: a console that writes to the host's capped
// buffer, and a Math.random that every peer draws the same numbers from. Date is left out of the
// context altogether (run-in-quickjs.ts), because its clock and time zone differ between peers.
// Nothing else of the host is passed in: no fetch, no timers, no DOM, no storage, no host objects.

/** Fixed, so that code which draws random numbers gets the same verdict on every peer. */
export const GUEST_RANDOM_SEED = 0x2545f491

/**
 * A function expression the host evaluates once per run and calls with its print function and the seed.
 * Taking them as arguments keeps the host function off the guest's global object.
 */
export const GUEST_PRELUDE = `(function (print, seed) {
  let state = seed >>> 0
  // xorshift32: a few integer operations, identical on every engine
  Math.random = function random() {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state / 4294967296
  }
  const write = (...values) => print(values.map((v) => (typeof v === 'string' ? v : String(v))).join(' '))
  globalThis.console = { log: write, info: write, warn: write, error: write, debug: write }
})`
