// Reproducible RMSNorm forward, mirroring src/kernels/ref/rmsnorm.ts bit for bit. Prepended:
// shaders/int64.wgsl, shaders/wide.wgsl, shaders/fixed.wgsl. One invocation per row does the row's
// reductions sequentially (max |x|, then the exact I64 sum of squares of the row's int16 mantissas),
// so the bits depend on the shape only, never on the workgroup size:
//   k = fitShift(max|x|, 2^15 − 1); ss = Σ rne(x_j, k)²; u = ss + rne(ε·D, 2(x_exp + k) + 40)
//   mean = divRne(rne(u, su), D, c); r = rsqrtFixed(mean) at r_exp (the row's bound)
//   y_j = sat32(mulRne(sat32(mulRne(x_j, r, ·)) [x̂ at 2^-24], weight_j, ·))

struct Params {
  rows: u32,
  d: u32,
  x_exp: i32,
  // ε at 2^-40 as a non-negative I64 (hi, lo)
  eps_hi: i32,
  eps_lo: u32,
  // max(ceil(log2 D) − 1, 0)
  c: i32,
  out_exp: i32,
  w_exp: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<i32>;
@group(0) @binding(2) var<storage, read> weight: array<i32>;
@group(0) @binding(3) var<storage, read_write> out: array<i32>;

override WG_X: u32 = 64u;

const XHAT_EXP: i32 = -24;
const EPS_EXP: i32 = -40;
const I16_MAX: i32 = 32767;

// The twin's fitShift(m, 2^15 − 1).
fn fit_shift16(m: i32) -> i32 {
  let s = max(0, i32(32u - countLeadingZeros(u32(m))) - 15);
  if (rne_sat32(i64_from_i32(m), s) > I16_MAX) {
    return s + 1;
  }
  return s;
}

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = flat_index(gid, nwg, WG_X);
  if (row >= params.rows) {
    return;
  }
  let d = params.d;
  let base = row * d;
  var top = 0;
  for (var j = 0u; j < d; j++) {
    top = max(top, abs(x[base + j]));
  }
  let k = fit_shift16(top);
  var ss = I64(0, 0u);
  for (var j = 0u; j < d; j++) {
    let m = rne_sat32(i64_from_i32(x[base + j]), k);
    ss = i64_add(ss, i64_from_i32(m * m)); // |m| ≤ 2^15 − 1: m² < 2^30
  }
  let sq_exp = 2 * (params.x_exp + k);
  let eps_d = wide_mul_i32(wide_from_i64(I64(params.eps_hi, params.eps_lo)), i32(d));
  let u = i64_add(ss, wide_to_i64(wide_rne(eps_d, sq_exp - EPS_EXP)));
  let su = max(0, i32(i64_bit_length(u)) - 31);
  let mean = div_rne(false, rne_i64(u, su).lo, d, params.c);
  let mean_exp = sq_exp + su - params.c;
  let b = i32(32u - countLeadingZeros(u32(mean))) + mean_exp; // mean < 2^b
  let r_exp = -((b - 1) >> 1u) + 1 - 30; // expForMagnitude(⌈(1 − b)/2⌉ + 1)
  let r = rsqrt_fixed(i64_from_i32(mean), mean_exp, r_exp);
  let s_hat = -(params.x_exp + r_exp - XHAT_EXP);
  let s_out = -XHAT_EXP + params.out_exp - params.w_exp;
  for (var j = 0u; j < d; j++) {
    let xhat = mul_rne_sat32(x[base + j], r, s_hat);
    out[base + j] = mul_rne_sat32(xhat, weight[j], s_out);
  }
}
