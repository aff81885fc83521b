// Integer helpers shared by every reproducible kernel; hosts prepend this file to a kernel's source
// (src/kernels/gpu/dispatch.ts). WGSL has only 32-bit integers, so 64-bit values are (hi: i32, lo: u32)
// two's-complement pairs. Wider exact intermediates and the twin's rounding helpers are in
// shaders/wide.wgsl, which every kernel but matmul prepends after this file.
// No float arithmetic anywhere.

const I32_MAX: i32 = 2147483647;

// Signed 64-bit integer as two's complement (hi, lo).
struct I64 {
  hi: i32,
  lo: u32,
}

fn i64_from_i32(x: i32) -> I64 {
  return I64(select(0, -1, x < 0), bitcast<u32>(x));
}

fn i64_add(x: I64, y: I64) -> I64 {
  let lo = x.lo + y.lo;
  let carry = select(0, 1, lo < x.lo);
  return I64(x.hi + y.hi + carry, lo);
}

fn i64_neg(x: I64) -> I64 {
  return i64_add(I64(~x.hi, ~x.lo), I64(0, 1u));
}

// Arithmetic (flooring) shift right by 0 ≤ t < 64.
fn i64_shr(x: I64, t: u32) -> I64 {
  if (t == 0u) {
    return x;
  }
  if (t >= 32u) {
    return I64(select(0, -1, x.hi < 0), bitcast<u32>(x.hi >> (t - 32u)));
  }
  return I64(x.hi >> t, (x.lo >> t) | (bitcast<u32>(x.hi) << (32u - t)));
}

// Shift left by 0 ≤ t < 64 (the caller guarantees no overflow).
fn i64_shl(x: I64, t: u32) -> I64 {
  if (t == 0u) {
    return x;
  }
  if (t >= 32u) {
    return I64(bitcast<i32>(x.lo << (t - 32u)), 0u);
  }
  return I64(bitcast<i32>((bitcast<u32>(x.hi) << t) | (x.lo >> (32u - t))), x.lo << t);
}

fn i64_lt(x: I64, y: I64) -> bool {
  return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo);
}

fn i64_eq(x: I64, y: I64) -> bool {
  return x.hi == y.hi && x.lo == y.lo;
}

fn i64_is_odd(x: I64) -> bool {
  return (x.lo & 1u) == 1u;
}

fn sat32(x: I64) -> i32 {
  if (i64_lt(I64(0, 2147483647u), x)) {
    return I32_MAX;
  }
  if (i64_lt(x, I64(-1, 2147483649u))) {
    return -I32_MAX;
  }
  return bitcast<i32>(x.lo);
}

// Round-half-even of x·2^-s for 0 < s < 32.
fn rne_small(x: I64, s: u32) -> I64 {
  let q = i64_shr(x, s);
  let r = x.lo - (q.lo << s); // 0 ≤ r < 2^s: only the low word matters
  let half = 1u << (s - 1u);
  if (r > half || (r == half && i64_is_odd(q))) {
    return i64_add(q, I64(0, 1u));
  }
  return q;
}
