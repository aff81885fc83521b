// Reproducible Adam/AdamW step, one invocation per element, mirroring src/kernels/ref/adam.ts bit for
// bit. Prepended: shaders/int64.wgsl, shaders/wide.wgsl. The twin computes with bigints; every value
// here is the same exact rational, held in 128 bits (the bounds below are what makes them fit), and is
// rounded once where the twin rounds. The host (src/kernels/gpu/adam-kernel.ts) turns the tensors'
// exponents and the step's scalars into the shifts below.
//   m' = rne(β1q·m·2^m_ea + c1·g·2^m_eb)                    at m's new exponent (β1q = 2^40 − c1)
//   r' = ⌊(⌊√four⌋ + 1)/2⌋, four = ⌊β2q·r²·2^r_ea + c2·g²·2^r_eb⌋  (the twin's nearest √, ties up)
//   w' = sat32(w − rne(|m'|·α·2^num_shift / (r'·2^den_r + ε̂·2^den_eps)) − rne(w·decay, decay_shift))
// Each m (resp. r) term is below 2^30 output units because the new exponent comes from the inputs'
// maxima; so four < 2^63 and r' never saturates.

// Scalar fields only: the host writes the uniform as consecutive 32-bit words. 41-bit factors are
// (lo, hi) word pairs.
struct Params {
  n: u32,
  m_ea: i32,
  m_eb: i32,
  beta1q_lo: u32,
  beta1q_hi: u32,
  c1_lo: u32,
  c1_hi: u32,
  r_ea: i32,
  r_eb: i32,
  beta2q_lo: u32,
  beta2q_hi: u32,
  c2_lo: u32,
  c2_hi: u32,
  alpha: i32,
  eps: i32,
  den_r: u32,
  den_eps: u32,
  num_shift: i32,
  decay: i32,
  decay_shift: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> w: array<i32>;
@group(0) @binding(2) var<storage, read> g: array<i32>;
@group(0) @binding(3) var<storage, read> m: array<i32>;
@group(0) @binding(4) var<storage, read> r: array<i32>;
@group(0) @binding(5) var<storage, read_write> w_out: array<i32>;
@group(0) @binding(6) var<storage, read_write> m_out: array<i32>;
@group(0) @binding(7) var<storage, read_write> r_out: array<i32>;

override WG_X: u32 = 64u;

// Exact product of a magnitude below 2^64 and a 64-bit (lo, hi) factor: below 2^128 for the operands here.
fn u128_mul_u64(a: vec4<u32>, b: vec2<u32>) -> vec4<u32> {
  return u128_add(u128_mul_u32(a, b.x), u128_shl(u128_mul_u32(a, b.y), 32u));
}

// x·2^e floored to a multiple of 2^at (exact when e ≥ at), with whether bits were dropped.
struct Floored {
  v: Wide,
  inexact: bool,
}

fn floor_at(x: Wide, e: i32, at: i32) -> Floored {
  if (e >= at) {
    return Floored(wide_shl(x, u32(e - at)), false);
  }
  let t = u32(at - e);
  var q = u128_shr(x.mag, t);
  let inexact = u128_low_nonzero(x.mag, t);
  if (x.neg && inexact) {
    q = u128_inc(q); // ⌊−y⌋ = −⌈y⌉
  }
  return Floored(Wide(x.neg, q), inexact);
}

// Round-half-even of a·2^ea + b·2^eb to an integer, where both terms are below 2^31 and
// max(ea, eb) ≥ −48. Working at at = min(max(ea, eb), −1) keeps the coarser term exact and the finer
// one's mantissa below 2^79; the finer term's dropped bits δ ∈ [0, 2^at) cannot reach a half-integer
// (those are multiples of 2^at), so they only matter as a sticky bit: rne(S + δ) = rne(S + 2^(at−1)).
fn rne_two_terms(a: Wide, ea: i32, b: Wide, eb: i32) -> Wide {
  let at = min(max(ea, eb), -1);
  let fa = floor_at(a, ea, at);
  let fb = floor_at(b, eb, at);
  let s = wide_add(fa.v, fb.v);
  if (fa.inexact || fb.inexact) {
    return wide_rne(wide_add(wide_shl(s, 1u), Wide(false, vec4<u32>(1u, 0u, 0u, 0u))), 1 - at);
  }
  return wide_rne(s, -at);
}

// ⌊x·2^e + y·2^f⌋ for non-negative magnitudes, both terms below 2^62 and max(e, f) ≥ −40: the coarser
// term is exact at at = min(max(e, f), 0) and the finer one's dropped bits (< 2^at) cannot carry the
// sum past an integer, because integers are multiples of 2^at.
fn floor_sum(x: vec4<u32>, e: i32, y: vec4<u32>, f: i32) -> vec4<u32> {
  let at = min(max(e, f), 0);
  let s = u128_add(floor_at(Wide(false, x), e, at).v.mag, floor_at(Wide(false, y), f, at).v.mag);
  return u128_shr(s, u32(-at));
}

// ⌊√n⌋ for n < 2^64, digit by digit.
fn isqrt_u64(n: vec4<u32>) -> vec4<u32> {
  var rem = n;
  var res = vec4<u32>(0u);
  var bit = vec4<u32>(0u, 0x40000000u, 0u, 0u); // 2^62
  for (var i = 0; i < 32; i++) {
    let trial = u128_add(res, bit);
    res = u128_shr(res, 1u);
    if (!u128_lt(rem, trial)) {
      rem = u128_sub(rem, trial);
      res = u128_add(res, bit);
    }
    bit = u128_shr(bit, 2u);
  }
  return res;
}

// Quotients beyond this saturate any weight: |w| and the decay term stay below 2^62.
const QUOTIENT_BITS: u32 = 64u;

// Round-half-even of n·2^k / d for n < 2^64 and 0 < d < 2^122, by restoring long division over the
// numerator's bits; a quotient past 2^64 comes back as 2^65 (the caller saturates).
fn div_rne_wide(n: vec4<u32>, k: i32, d: vec4<u32>) -> vec4<u32> {
  if (u128_is_zero(n)) {
    return vec4<u32>(0u);
  }
  let nbits = i32(u128_bit_length(n));
  var den = d;
  var zeros = k; // numerator zeros after n's bits
  if (k < 0) {
    // d·2^-k > 2n: below half a unit, never a tie
    if (i32(u128_bit_length(d)) - 1 - k >= nbits + 1) {
      return vec4<u32>(0u);
    }
    den = u128_shl(d, u32(-k)); // below 2^66
    zeros = 0;
  }
  var q = vec4<u32>(0u);
  var rem = vec4<u32>(0u);
  for (var i = nbits + zeros - 1; i >= 0; i--) {
    rem = u128_shl(rem, 1u);
    if (i >= zeros && u128_bit(n, u32(i - zeros))) {
      rem.x = rem.x | 1u;
    }
    q = u128_shl(q, 1u);
    if (!u128_lt(rem, den)) {
      rem = u128_sub(rem, den);
      q.x = q.x | 1u;
    }
    if (u128_bit_length(q) > QUOTIENT_BITS) {
      return vec4<u32>(0u, 0u, 2u, 0u);
    }
  }
  let twice = u128_shl(rem, 1u);
  if (u128_lt(den, twice) || (all(twice == den) && (q.x & 1u) == 1u)) {
    q = u128_inc(q);
  }
  return q;
}

fn mag64(v: vec2<u32>) -> vec4<u32> {
  return vec4<u32>(v.x, v.y, 0u, 0u);
}

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, WG_X);
  if (i >= params.n) {
    return;
  }
  let gi = wide_from_i32(g[i]);

  let mi = wide_from_i32(m[i]);
  let m_term = Wide(mi.neg, u128_mul_u64(mi.mag, vec2<u32>(params.beta1q_lo, params.beta1q_hi)));
  let g_term = Wide(gi.neg, u128_mul_u64(gi.mag, vec2<u32>(params.c1_lo, params.c1_hi)));
  let m2 = wide_sat32(rne_two_terms(m_term, params.m_ea, g_term, params.m_eb));
  m_out[i] = m2;

  let ri = wide_from_i32(r[i]).mag;
  let r_sq = u128_mul_u64(mag64(mul_u32(ri.x, ri.x)), vec2<u32>(params.beta2q_lo, params.beta2q_hi));
  let g_sq = u128_mul_u64(mag64(mul_u32(gi.mag.x, gi.mag.x)), vec2<u32>(params.c2_lo, params.c2_hi));
  let root = isqrt_u64(floor_sum(r_sq, params.r_ea, g_sq, params.r_eb));
  let r2 = wide_sat32(Wide(false, u128_shr(u128_inc(root), 1u)));
  r_out[i] = r2;

  let den = u128_add(
    u128_shl(vec4<u32>(u32(r2), 0u, 0u, 0u), params.den_r),
    u128_shl(vec4<u32>(u32(params.eps), 0u, 0u, 0u), params.den_eps),
  );
  var step = Wide(false, vec4<u32>(0u));
  if (!u128_is_zero(den)) {
    let num = mag64(mul_u32(wide_from_i32(m2).mag.x, u32(params.alpha)));
    step = Wide(m2 < 0, div_rne_wide(num, params.num_shift, den));
  }
  let wi = wide_from_i32(w[i]);
  let decay = wide_rne(wide_mul_i32(wi, params.decay), params.decay_shift);
  w_out[i] = wide_sat32(wide_sub(wide_sub(wi, step), decay));
}
