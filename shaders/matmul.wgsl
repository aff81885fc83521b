// Reproducible matmul: C = op(A)·op(B) on i32 tensors, exact up to one final round-half-even.
// Mirrors src/kernels/ref/matmul.ts bit for bit (docs/number-format.md):
//   - at most one operand is wide i32; it is split as hi·2^15 + lo with lo in [0, 2^15), so every
//     product fits an i32 (|hi·b| ≤ 65536·32767 < 2^31);
//   - the hi-limb and lo-limb products are summed over the whole of K in exact 64-bit (hi, lo) u32
//     pairs, so any order, tiling or workgroup size gives the same sums;
//   - rne_limbs rounds (H·2^15 + L)·2^-shift half to even with the twin's limb comparisons, then
//     saturates to ±(2^31 − 1).
// No float arithmetic anywhere. The host prepends shaders/int64.wgsl (I64, sat32, rne_small).

struct Params {
  m: u32,
  n: u32,
  k: u32,
  // element (i, kk) of op(A) is a[i * a_row + kk * a_k]; element (kk, j) of op(B) is b[kk * b_k + j * b_col]
  a_row: u32,
  a_k: u32,
  b_k: u32,
  b_col: u32,
  // 1 when the operand is wide i32 (split into limbs), 0 for int16 mantissas
  a_wide: u32,
  b_wide: u32,
  out_exp: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<i32>;
@group(0) @binding(2) var<storage, read> b: array<i32>;
// exponent of output row i (from A) and of output column j (from B)
@group(0) @binding(3) var<storage, read> a_exp: array<i32>;
@group(0) @binding(4) var<storage, read> b_exp: array<i32>;
@group(0) @binding(5) var<storage, read_write> c: array<i32>;

override WG_X: u32 = 8u;
override WG_Y: u32 = 8u;

const LIMB: u32 = 15u;

// Round-half-even of (h·2^15 + l)·2^-s for exact 64-bit sums h, l; the twin's rneLimbs with b = 15.
fn rne_limbs(h_in: I64, l_in: I64, s: i32) -> i32 {
  // normalise so that 0 ≤ l < 2^15: the carry is floor(l / 2^15)
  let carry = i64_shr(l_in, LIMB);
  let h = i64_add(h_in, carry);
  let l = l_in.lo & 0x7fffu;
  if (s < i32(LIMB)) {
    // |h| ≥ 2^47 puts the result far beyond i32 (s < 15); otherwise h·2^15 + l is exact in 64 bits
    if (!i64_lt(h, I64(0x8000, 0u))) {
      return I32_MAX;
    }
    if (i64_lt(h, I64(-0x8000, 0u))) {
      return -I32_MAX;
    }
    let total = i64_add(i64_shl(h, LIMB), I64(0, l));
    if (s > 0) {
      return sat32(rne_small(total, u32(s)));
    }
    // s ≤ 0 multiplies by 2^-s: anything at or beyond 2^(31 + s) in magnitude saturates
    let up = u32(-s);
    if (i64_eq(total, I64(0, 0u))) {
      return 0;
    }
    if (up >= 31u) {
      return select(I32_MAX, -I32_MAX, total.hi < 0);
    }
    let limit = I64(0, 1u << (31u - up));
    if (!i64_lt(total, limit)) {
      return I32_MAX;
    }
    if (!i64_lt(i64_neg(limit), total)) {
      return -I32_MAX;
    }
    return bitcast<i32>(i64_shl(total, up).lo);
  }
  if (s == i32(LIMB)) {
    let half = 1u << (LIMB - 1u);
    if (l > half || (l == half && i64_is_odd(h))) {
      return sat32(i64_add(h, I64(0, 1u)));
    }
    return sat32(h);
  }
  if (s > 70) {
    return 0; // |h·2^15 + l| < 2^70 with K ≤ 2^22: below half a unit, never a tie
  }
  let t = u32(s) - LIMB;
  let q = i64_shr(h, t);
  let r = i64_add(h, i64_neg(i64_shl(q, t))); // 0 ≤ r < 2^t
  let half = i64_shl(I64(0, 1u), t - 1u);
  let above = i64_lt(half, r) || (i64_eq(r, half) && l > 0u);
  let tie = i64_eq(r, half) && l == 0u;
  if (above || (tie && i64_is_odd(q))) {
    return sat32(i64_add(q, I64(0, 1u)));
  }
  return sat32(q);
}

@compute @workgroup_size(WG_X, WG_Y, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let j = gid.y;
  if (i >= params.m || j >= params.n) {
    return;
  }
  var hi = I64(0, 0u);
  var lo = I64(0, 0u);
  for (var kk = 0u; kk < params.k; kk++) {
    let x = a[i * params.a_row + kk * params.a_k];
    let y = b[kk * params.b_k + j * params.b_col];
    if (params.a_wide == 1u) {
      hi = i64_add(hi, i64_from_i32((x >> LIMB) * y));
      lo = i64_add(lo, i64_from_i32((x & 0x7fff) * y));
    } else if (params.b_wide == 1u) {
      hi = i64_add(hi, i64_from_i32(x * (y >> LIMB)));
      lo = i64_add(lo, i64_from_i32(x * (y & 0x7fff)));
    } else {
      lo = i64_add(lo, i64_from_i32(x * y));
    }
  }
  let shift = params.out_exp - a_exp[i] - b_exp[j];
  c[i * params.n + j] = rne_limbs(hi, lo, shift);
}
