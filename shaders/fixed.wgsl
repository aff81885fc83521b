// Fixed-point nonlinear building blocks, mirroring src/kernels/ref/{rounding,exp,silu}.ts bit for bit
// with the twin's integer constants. Prepended after shaders/int64.wgsl and shaders/wide.wgsl by the
// nonlinear kernels.

const LOG2E_Q30: i32 = 1549082005;
const LN2_Q30: i32 = 744261118;
const ONE_Q30: i32 = 1073741824;
// round(2^30/n!) for n = 0..10 (src/kernels/ref/exp.ts)
const EXP_TAYLOR_Q30 = array<i32, 11>(
  1073741824, 1073741824, 536870912, 178956971, 44739243, 8947849, 1491308, 213044, 26631, 2959, 296,
);

// The twin's divRne: round-half-even of ±n·2^s / d for n ≤ 2^31, 0 < d ≤ 2^31, s ≥ 0, saturated.
// Long division one bit at a time (the twin takes 21-bit chunks; the quotient bits are the same, and
// the quotient only grows, so saturating early or late gives the same result).
fn div_rne(neg: bool, n: u32, d: u32, s: i32) -> i32 {
  let q = n / d;
  return div_rne_tail(neg, q, n - q * d, d, s);
}

// divRne for a numerator below 2^64 given as (lo, hi) words (the cross-entropy sum).
fn div_rne_u64(neg: bool, n: vec2<u32>, d: u32, s: i32) -> i32 {
  var q = 0u;
  var r = 0u;
  for (var i = 63; i >= 0; i--) {
    var word = n.x;
    var at = u32(i);
    if (i >= 32) {
      word = n.y;
      at = u32(i - 32);
    }
    r = (r << 1u) | ((word >> at) & 1u); // r < d ≤ 2^31
    q = q << 1u;
    if (r >= d) {
      r = r - d;
      q = q + 1u;
    }
    if (q > 2147483647u) {
      return select(I32_MAX, -I32_MAX, neg);
    }
  }
  return div_rne_tail(neg, q, r, d, s);
}

// s more quotient bits after q (remainder r < d), then the round-half-even and the saturation.
fn div_rne_tail(neg: bool, q_in: u32, r_in: u32, d: u32, s: i32) -> i32 {
  var q = q_in;
  var r = r_in;
  for (var k = 0; k < s; k++) {
    if (q > 2147483647u) {
      break;
    }
    r = r << 1u; // r < d ≤ 2^31
    q = q << 1u;
    if (r >= d) {
      r = r - d;
      q = q + 1u;
    }
  }
  if (q > 2147483647u) {
    return select(I32_MAX, -I32_MAX, neg);
  }
  let twice = r << 1u;
  if (twice > d || (twice == d && (q & 1u) == 1u)) {
    q = q + 1u;
  }
  if (q > 2147483647u) {
    return select(I32_MAX, -I32_MAX, neg);
  }
  let v = bitcast<i32>(q);
  return select(v, -v, neg);
}

// 2^-g for g ∈ [0, 2^24) in Q24, as Q30: Horner on e^-(g·ln 2) (the twin's exp2NegQ30).
fn exp2_neg_q30(g: i32) -> i32 {
  var c = EXP_TAYLOR_Q30;
  let u = mul_rne_sat32(g, LN2_Q30, 24);
  var acc = c[10];
  for (var n = 9; n >= 0; n--) {
    acc = c[n] - mul_rne_sat32(acc, u, 30);
  }
  return acc;
}

// The twin's expFixed(x, x_exp, out_exp, log2e) for |x| < 2^32 (an I64).
fn exp_fixed(x: I64, x_exp: i32, out_exp: i32, log2e: i32) -> i32 {
  let y = wide_sat32(wide_rne(wide_mul_i32(wide_from_i64(x), log2e), 6 - x_exp));
  let n = -((-y) >> 24u); // ⌈y / 2^24⌉ ≤ 128
  let g = bitcast<i32>(bitcast<u32>(n) * 16777216u - bitcast<u32>(y)); // n·2^24 − y ∈ [0, 2^24)
  let p = exp2_neg_q30(g);
  return rne_sat32(i64_from_i32(p), 30 + out_exp - n);
}

// The twin's sigmoidQ30: 1/(1 + e^-|x|) in Q30 by one long division, mirrored for x < 0.
fn sigmoid_q30(x: i32, x_exp: i32) -> i32 {
  let e = exp_fixed(i64_from_i32(-abs(x)), x_exp, -30, LOG2E_Q30);
  let pos = div_rne(false, u32(ONE_Q30), u32(ONE_Q30) + u32(e), 30);
  return select(pos, ONE_Q30 - pos, x < 0);
}

// The twin's silu at the input's exponent.
fn silu_fixed(x: i32, x_exp: i32) -> i32 {
  return mul_rne_sat32(x, sigmoid_q30(x, x_exp), 30);
}

// round(2^30/n) for n = 1, 3, …, 11 and round(√2·2^29) (src/kernels/ref/log.ts)
const ATANH_SERIES_Q30 = array<i32, 6>(1073741824, 357913941, 214748365, 153391689, 119304647, 97612893);
const SQRT2_Q29: i32 = 759250125;

// The twin's lnQ30: ln(u·2^u_exp) in Q30, unsaturated, for 0 < u < 2^53.
fn ln_q30(u: I64, u_exp: i32) -> I64 {
  let k = i32(i64_bit_length(u)) - 1;
  let m = bitcast<i32>(rne_i64(u, k - 29).lo);
  var e = k + u_exp;
  var one = 536870912;
  if (m > SQRT2_Q29) {
    one = ONE_Q30;
    e = e + 1;
  }
  let num = m - one;
  let z = div_rne(num < 0, u32(abs(num)), u32(m) + u32(one), 30);
  let w = mul_rne_sat32(z, z, 30);
  var c = ATANH_SERIES_Q30;
  var acc = c[5];
  for (var i = 4; i >= 0; i--) {
    acc = c[i] + mul_rne_sat32(acc, w, 30);
  }
  let ln_mant = mul_rne(i64_from_i32(z), acc, 29);
  return i64_add(ln_mant, wide_to_i64(wide_mul_i32(wide_from_i32(e), LN2_Q30)));
}

// Newton steps of the twin's rsqrtFixed (src/kernels/ref/rsqrt.ts).
const NEWTON_STEPS: i32 = 5;

// The twin's rsqrtFixed: 1/√(u·2^u_exp) at out_exp, saturated, for 0 < u < 2^53.
fn rsqrt_fixed(u: I64, u_exp: i32, out_exp: i32) -> i32 {
  var s = i32(i64_bit_length(u)) - 30;
  if (((s + u_exp + 28) & 1) != 0) {
    s = s + 1;
  }
  let m = wide_sat32(wide_rne(wide_from_i64(u), s)); // Q28 mantissa in [1, 4]
  let e = s + u_exp + 28; // even
  var y = ONE_Q30 - div_rne(false, u32(m - 268435456), 3u, 1); // chord 1 − (m−1)/6 in Q30
  for (var i = 0; i < NEWTON_STEPS; i++) {
    let y2 = mul_rne_sat32(y, y, 30);
    let h = 1610612736 - mul_rne_sat32(m, y2, 29); // (3 − m·y²)/2 in Q30
    y = mul_rne_sat32(y, h, 30);
  }
  return rne_sat32(i64_from_i32(y), 30 + (e >> 1u) + out_exp);
}
