// Reproducible RMSNorm forward and backward, mirroring src/kernels/ref/rmsnorm.ts bit for bit.
// Prepended: shaders/int64.wgsl, shaders/wide.wgsl (fit_shift16), shaders/fixed.wgsl. Every
// reduction is one invocation's sequential loop in index order, so the bits depend on the shape only,
// never on the workgroup size. A row's norm (shared by every op that needs x̂):
//   k = fitShift(max|x|, 2^15 − 1); ss = Σ rne(x_j, k)²; u = ss + rne(ε·D, 2(x_exp + k) + 40)
//   mean = divRne(rne(u, su), D, c); r = rsqrtFixed(mean) at r_exp (the row's bound)
//   x̂_j = sat32(mulRne(x_j, r, ·)) at 2^-24
// Ops (the host picks the exponents between passes from whole-tensor maxima, as the twin does):
//   forward    (per row):     y_j = sat32(mulRne(x̂_j, weight_j, s_out))
//   normalize  (per row):     x̂, and (r, r_exp) per row
//   dweight    (per column):  dWeight_j = sat32(rne(Σ_rows mulRne(dy, x̂, sp), s_dw)), rows in order
//   center     (per row):     v = sat32(mulRne(dy, weight, s_v)); mean = divRne(Σ_j mulRne(v, x̂, sc), D, c)
//                             w_j = sat32(rne(v_j·2^guard − mulRne(x̂_j, mean, ·), guard + hw))
//   scale      (per element): dx = sat32(mulRne(w, r, s_dx − r_exp)) with the row's (r, r_exp)

struct Params {
  op: u32,
  rows: u32,
  d: u32,
  x_exp: i32,
  // ε at 2^-40 as a non-negative I64 (hi, lo)
  eps_hi: i32,
  eps_lo: u32,
  // max(ceil(log2 D) − 1, 0)
  c: i32,
  // forward: x̂ → y
  s_out: i32,
  // dweight: the product shift, then the sum's rounding
  sp: i32,
  s_dw: i32,
  // center: dy ⊙ weight → v, the dot's product shift, guard and headroom bits
  s_v: i32,
  sc: i32,
  guard: i32,
  hw: i32,
  // scale: dx exponent − w exponent (the row's r_exp is subtracted here)
  s_dx: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
// x (forward, normalize), or w (scale)
@group(0) @binding(1) var<storage, read> x: array<i32>;
@group(0) @binding(2) var<storage, read> weight: array<i32>;
@group(0) @binding(3) var<storage, read> dy: array<i32>;
@group(0) @binding(4) var<storage, read> xhat: array<i32>;
// (r, r_exp) per row, as normalize wrote them (scale)
@group(0) @binding(5) var<storage, read> norms_in: array<i32>;
@group(0) @binding(6) var<storage, read_write> out: array<i32>;
// (r, r_exp) per row (normalize)
@group(0) @binding(7) var<storage, read_write> norms: array<i32>;

override WG_X: u32 = 64u;

const OP_FORWARD: u32 = 0u;
const OP_NORMALIZE: u32 = 1u;
const OP_DWEIGHT: u32 = 2u;
const OP_CENTER: u32 = 3u;
const OP_SCALE: u32 = 4u;

const XHAT_EXP: i32 = -24;
const EPS_EXP: i32 = -40;

// 1/rms of one row at r_exp (the twin's rowRsqrt).
struct RowNorm {
  r: i32,
  r_exp: i32,
}

fn row_norm(base: u32) -> RowNorm {
  let d = params.d;
  // max |x| by wide_from_i32's magnitudes, as the attention kernel narrows: on an NVIDIA H200 (driver
  // 580, Dawn's Vulkan backend) `top = max(top, abs(x[j]))` here came out as max(top, x[j]), so rows
  // whose largest magnitude is negative got the wrong shift (docs/gpu-check.md)
  var top = 0u;
  for (var j = 0u; j < d; j++) {
    top = max(top, wide_from_i32(x[base + j]).mag.x);
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
  return RowNorm(rsqrt_fixed(i64_from_i32(mean), mean_exp, r_exp), r_exp);
}

// dWeight_j: the column's products summed over rows in index order (exact: each is below 2^52/rows).
fn dweight(j: u32) {
  let d = params.d;
  var sum = I64(0, 0u);
  for (var i = 0u; i < params.rows; i++) {
    let k = i * d + j;
    sum = i64_add(sum, mul_rne(i64_from_i32(dy[k]), xhat[k], params.sp));
  }
  out[j] = rne_sat32(sum, params.s_dw);
}

// w = v − x̂·mean(v ⊙ x̂) of one row, formed exactly with `guard` extra bits, rounded once.
fn center(base: u32) {
  let d = params.d;
  var dot = I64(0, 0u);
  for (var j = 0u; j < d; j++) {
    let v = mul_rne_sat32(dy[base + j], weight[j], params.s_v);
    out[base + j] = v; // kept for the second loop: one copy of the product code, not two
    dot = i64_add(dot, mul_rne(i64_from_i32(v), xhat[base + j], params.sc));
  }
  let s31 = max(0, i32(i64_bit_length(dot)) - 31);
  let q = wide_from_i64(rne_i64(dot, s31)); // |q| ≤ 2^31: its magnitude is one word
  let mean = div_rne(q.neg, q.mag.x, d, params.c);
  // the twin's ev − guard − XHAT_EXP − mean_exp, with mean_exp = ev + XHAT_EXP + sc + s31 − c
  let s_t = params.c - params.guard - 2 * XHAT_EXP - params.sc - s31;
  for (var j = 0u; j < d; j++) {
    let t = mul_rne(i64_from_i32(xhat[base + j]), mean, s_t);
    let scaled = wide_shl(wide_from_i32(out[base + j]), u32(params.guard));
    out[base + j] = wide_sat32(wide_rne(wide_sub(scaled, wide_from_i64(t)), params.guard + params.hw));
  }
}

fn invocations() -> u32 {
  switch (params.op) {
    case OP_DWEIGHT: {
      return params.d;
    }
    case OP_SCALE: {
      return params.rows * params.d;
    }
    default: {
      return params.rows;
    }
  }
}

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, WG_X);
  if (i >= invocations()) {
    return;
  }
  let d = params.d;
  switch (params.op) {
    case OP_FORWARD, OP_NORMALIZE: {
      // one call site of the row norm for both ops: SwiftShader compiles every inlined copy
      let n = row_norm(i * d);
      let forward = params.op == OP_FORWARD;
      if (!forward) {
        norms[2u * i] = n.r;
        norms[2u * i + 1u] = n.r_exp;
      }
      for (var j = 0u; j < d; j++) {
        var y = mul_rne_sat32(x[i * d + j], n.r, -(params.x_exp + n.r_exp - XHAT_EXP)); // x̂
        if (forward) {
          y = mul_rne_sat32(y, weight[j], params.s_out);
        }
        out[i * d + j] = y;
      }
    }
    case OP_DWEIGHT: {
      dweight(i);
    }
    case OP_CENTER: {
      center(i * d);
    }
    default: {
      let row = i / d;
      out[i] = mul_rne_sat32(x[i], norms_in[2u * row], params.s_dx - norms_in[2u * row + 1u]);
    }
  }
}
