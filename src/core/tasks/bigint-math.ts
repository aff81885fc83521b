// Exact integer helpers for the generators and verifiers (bigint, so nothing rounds).

export function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a
  b = b < 0n ? -b : b
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

/** The mathematical modulo: always in [0, m) for m > 0, unlike `%` with a negative left side. */
export function mod(a: bigint, m: bigint): bigint {
  return ((a % m) + m) % m
}

export function modPow(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n % m
  let b = mod(base, m)
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m
    b = (b * b) % m
  }
  return result
}

/** x with a·x ≡ 1 (mod m), for gcd(a, m) = 1 (extended Euclid). */
export function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1, s0, s1] = [mod(a, m), m, 1n, 0n]
  while (r1 !== 0n) {
    const q = r0 / r1
    ;[r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1]
  }
  if (r0 !== 1n) throw new RangeError(`${a} has no inverse modulo ${m}`)
  return mod(s0, m)
}
