// Wide exact intermediates and the twin's rounding helpers, prepended after shaders/int64.wgsl by every
// kernel but matmul (src/kernels/gpu/dispatch.ts). Values wider than 64 bits are sign + 128-bit
// magnitude (vec4<u32>, x is the lowest word). Round-half-even is symmetric (rne(−v) = −rne(v)), so
// rounding a magnitude and re-applying the sign gives the twin's floor-based rne
// (src/kernels/ref/rounding.ts) bit for bit. No float arithmetic anywhere.

fn i64_sub(x: I64, y: I64) -> I64 {
  return i64_add(x, i64_neg(y));
}

fn i64_is_neg(x: I64) -> bool {
  return x.hi < 0;
}

// ---- unsigned 128-bit magnitudes --------------------------------------------------------------

fn u128_is_zero(v: vec4<u32>) -> bool {
  return all(v == vec4<u32>(0u));
}

// v >> s for 0 ≤ s; s ≥ 128 gives 0.
fn u128_shr(v: vec4<u32>, s: u32) -> vec4<u32> {
  var w = v;
  var out = vec4<u32>(0u);
  let ws = s / 32u;
  let bs = s % 32u;
  for (var i = 0u; i < 4u; i++) {
    let j = i + ws;
    if (j < 4u) {
      var x = w[j] >> bs;
      if (bs > 0u && j + 1u < 4u) {
        x = x | (w[j + 1u] << (32u - bs));
      }
      out[i] = x;
    }
  }
  return out;
}

// v << s for 0 ≤ s (bits shifted past 2^128 are lost; callers check first).
fn u128_shl(v: vec4<u32>, s: u32) -> vec4<u32> {
  var w = v;
  var out = vec4<u32>(0u);
  let ws = s / 32u;
  let bs = s % 32u;
  for (var i = 0u; i < 4u; i++) {
    if (i >= ws) {
      let j = i - ws;
      var x = w[j] << bs;
      if (bs > 0u && j > 0u) {
        x = x | (w[j - 1u] >> (32u - bs));
      }
      out[i] = x;
    }
  }
  return out;
}

fn u128_bit(v: vec4<u32>, i: u32) -> bool {
  var w = v;
  return ((w[i / 32u] >> (i % 32u)) & 1u) == 1u;
}

// Whether any of the bits below position n is set.
fn u128_low_nonzero(v: vec4<u32>, n: u32) -> bool {
  if (n == 0u) {
    return false;
  }
  if (n >= 128u) {
    return !u128_is_zero(v);
  }
  return any(u128_shl(u128_shr(v, n), n) != v);
}

fn u128_inc(v: vec4<u32>) -> vec4<u32> {
  var out = v;
  out.x = v.x + 1u;
  if (out.x == 0u) {
    out.y = v.y + 1u;
    if (out.y == 0u) {
      out.z = v.z + 1u;
      if (out.z == 0u) {
        out.w = v.w + 1u;
      }
    }
  }
  return out;
}

fn u128_add(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
  var out = vec4<u32>(0u);
  var carry = 0u;
  var x = a;
  var y = b;
  for (var i = 0u; i < 4u; i++) {
    let s = x[i] + y[i];
    let c1 = select(0u, 1u, s < x[i]);
    let t = s + carry;
    let c2 = select(0u, 1u, t < s);
    out[i] = t;
    carry = c1 + c2;
  }
  return out;
}

// a − b for a ≥ b.
fn u128_sub(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
  var out = vec4<u32>(0u);
  var borrow = 0u;
  var x = a;
  var y = b;
  for (var i = 0u; i < 4u; i++) {
    let d = x[i] - y[i];
    let b1 = select(0u, 1u, x[i] < y[i]);
    let t = d - borrow;
    let b2 = select(0u, 1u, d < borrow);
    out[i] = t;
    borrow = b1 + b2;
  }
  return out;
}

fn u128_lt(a: vec4<u32>, b: vec4<u32>) -> bool {
  if (a.w != b.w) {
    return a.w < b.w;
  }
  if (a.z != b.z) {
    return a.z < b.z;
  }
  if (a.y != b.y) {
    return a.y < b.y;
  }
  return a.x < b.x;
}

// Number of significant bits (0 for 0).
fn u128_bit_length(v: vec4<u32>) -> u32 {
  if (v.w != 0u) {
    return 128u - countLeadingZeros(v.w);
  }
  if (v.z != 0u) {
    return 96u - countLeadingZeros(v.z);
  }
  if (v.y != 0u) {
    return 64u - countLeadingZeros(v.y);
  }
  return 32u - countLeadingZeros(v.x);
}

// Exact 32 × 32 → 64-bit unsigned product as (lo, hi), by 16-bit halves.
fn mul_u32(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let p11 = a1 * b1;
  let mid = p01 + p10;
  let mid_carry = select(0u, 0x10000u, mid < p01);
  let lo = p00 + (mid << 16u);
  let c = select(0u, 1u, lo < p00);
  return vec2<u32>(lo, p11 + (mid >> 16u) + mid_carry + c);
}

// Exact (128-bit) product of two magnitudes below 2^64 and 2^32.
fn u128_mul_u32(a: vec4<u32>, b: u32) -> vec4<u32> {
  let p0 = mul_u32(a.x, b);
  let p1 = mul_u32(a.y, b);
  let p2 = mul_u32(a.z, b);
  return u128_add(vec4<u32>(p0.x, p0.y, p2.x, p2.y), vec4<u32>(0u, p1.x, p1.y, 0u));
}

// ---- signed values as sign + magnitude ------------------------------------------------------------

struct Wide {
  neg: bool,
  mag: vec4<u32>,
}

fn wide_from_i32(x: i32) -> Wide {
  // |x| as u32 works for every i32 (−2^31 gives 2^31)
  return Wide(x < 0, vec4<u32>(select(bitcast<u32>(x), 0u - bitcast<u32>(x), x < 0), 0u, 0u, 0u));
}

fn wide_from_i64(x: I64) -> Wide {
  var m = x;
  if (x.hi < 0) {
    m = i64_neg(x);
  }
  return Wide(x.hi < 0, vec4<u32>(m.lo, bitcast<u32>(m.hi), 0u, 0u));
}

fn wide_neg(x: Wide) -> Wide {
  return Wide(!x.neg, x.mag);
}

// Exact x·2^t for 0 ≤ t with |x|·2^t < 2^128 (callers bound t).
fn wide_shl(x: Wide, t: u32) -> Wide {
  return Wide(x.neg, u128_shl(x.mag, t));
}

fn wide_add(x: Wide, y: Wide) -> Wide {
  if (x.neg == y.neg) {
    return Wide(x.neg, u128_add(x.mag, y.mag));
  }
  if (u128_lt(x.mag, y.mag)) {
    return Wide(y.neg, u128_sub(y.mag, x.mag));
  }
  return Wide(x.neg, u128_sub(x.mag, y.mag));
}

fn wide_sub(x: Wide, y: Wide) -> Wide {
  return wide_add(x, wide_neg(y));
}

// Exact x·b for |x| < 2^64.
fn wide_mul_i32(x: Wide, b: i32) -> Wide {
  let bw = wide_from_i32(b);
  return Wide(x.neg != bw.neg, u128_mul_u32(x.mag, bw.mag.x));
}

// Marker for "beyond anything a caller can hold": every conversion below saturates it.
const U128_HUGE: vec4<u32> = vec4<u32>(0u, 0u, 0u, 0x40000000u);

// Round-half-even of mag·2^-s for any s (s ≤ 0 multiplies; a result that would not fit is U128_HUGE).
fn u128_rne(mag: vec4<u32>, s: i32) -> vec4<u32> {
  if (s == 0 || u128_is_zero(mag)) {
    return mag;
  }
  if (s < 0) {
    let up = u32(-s);
    if (up + u128_bit_length(mag) > 126u) {
      return U128_HUGE;
    }
    return u128_shl(mag, up);
  }
  let t = u32(s);
  if (t > 128u) {
    return vec4<u32>(0u); // below half a unit, never a tie
  }
  let q = u128_shr(mag, t);
  let round = u128_bit(mag, t - 1u);
  let sticky = u128_low_nonzero(mag, t - 1u);
  if (round && (sticky || (q.x & 1u) == 1u)) {
    return u128_inc(q);
  }
  return q;
}

fn wide_rne(x: Wide, s: i32) -> Wide {
  return Wide(x.neg, u128_rne(x.mag, s));
}

// Saturating conversion to the symmetric i32 range.
fn wide_sat32(x: Wide) -> i32 {
  if (x.mag.w != 0u || x.mag.z != 0u || x.mag.y != 0u || x.mag.x > 2147483647u) {
    return select(I32_MAX, -I32_MAX, x.neg);
  }
  let m = bitcast<i32>(x.mag.x);
  return select(m, -m, x.neg);
}

// Conversion to I64 with the magnitude clamped to 2^53 (the twin's HUGE: its results that cannot be
// held exactly in a JS number).
fn wide_to_i64(x: Wide) -> I64 {
  var m = x.mag;
  if (m.w != 0u || m.z != 0u || m.y > 0x200000u || (m.y == 0x200000u && m.x != 0u)) {
    m = vec4<u32>(0u, 0x200000u, 0u, 0u);
  }
  let v = I64(bitcast<i32>(m.y), m.x);
  if (x.neg) {
    return i64_neg(v);
  }
  return v;
}

// The twin's rne(x, s) then sat32.
fn rne_sat32(x: I64, s: i32) -> i32 {
  return wide_sat32(wide_rne(wide_from_i64(x), s));
}

// The twin's rne(x, s) as an I64 (clamped at ±2^53).
fn rne_i64(x: I64, s: i32) -> I64 {
  return wide_to_i64(wide_rne(wide_from_i64(x), s));
}

// The twin's mulRne(a, b, s): round-half-even of a·b·2^-s for |a| < 2^63, clamped at ±2^53.
fn mul_rne(a: I64, b: i32, s: i32) -> I64 {
  return wide_to_i64(wide_rne(wide_mul_i32(wide_from_i64(a), b), s));
}

// sat32(mulRne(a, b, s)) for i32 operands.
fn mul_rne_sat32(a: i32, b: i32, s: i32) -> i32 {
  return wide_sat32(wide_rne(wide_mul_i32(wide_from_i32(a), b), s));
}

// Bits of |x| (the twin's bitLength of a non-negative integer).
fn i64_bit_length(x: I64) -> u32 {
  return u128_bit_length(wide_from_i64(x).mag);
}

// Element index of a 1-D kernel dispatched as a 2-D grid of workgroups (dispatch.ts).
fn flat_index(gid: vec3<u32>, nwg: vec3<u32>, wg_x: u32) -> u32 {
  return gid.x + gid.y * nwg.x * wg_x;
}

const I16_MAX: i32 = 32767;

// The twin's fitShift(m, 2^15 − 1) of a magnitude m ≤ 2^31: the smallest s with rne(m·2^-s) ≤ 2^15 − 1.
fn fit_shift16(m: u32) -> i32 {
  let s = max(0, 17 - i32(countLeadingZeros(m)));
  if (rne_sat32(I64(0, m), s) > I16_MAX) {
    return s + 1;
  }
  return s;
}
