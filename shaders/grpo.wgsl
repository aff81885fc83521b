// The GRPO clipped-ratio surrogate with its optional KL penalty, and their gradient, mirroring
// src/kernels/ref/grpo.ts bit for bit. Prepended: shaders/int64.wgsl, shaders/wide.wgsl,
// shaders/fixed.wgsl. One invocation per token computes the token's gradient; invocation 0 also sums
// the masked tokens' terms in token order (exact I64 integers, so the order cannot move a bit) and
// divides once:
//   r      = expFixed(lp − old) at 2^-24
//   unclipped = A ≥ 0 ? r ≤ hi : r ≥ lo   (hi = 1 + ε_high, lo = 1 − ε_low at 2^-24)
//   term   = mulRne(A, unclipped ? r : (A ≥ 0 ? hi : lo), s)
//   with β > 0, d = clamp(rne(ref − lp) at 2^KL_EXP, −64, 4), e = expFixed(d) at 2^KL_EXP:
//   k3     = e − d − 1                  pull = mulRne(β, 1 − e, pull_shift)   (both 0 when β = 0)
//   kl     = divRne(Σ k3, N)            loss = sat32(rne(divRne(−Σ term, N), loss_shift) + mulRne(β, kl, 30))
//   grad   = divRne((unclipped ? −mulRne(A, r, s) : 0) + pull, N, k)       (0 for masked-out tokens)

struct Params {
  t: u32,
  count: u32,
  lp_exp: i32,
  lo: i32,
  hi: i32,
  s: i32,
  k: i32,
  loss_shift: i32,
  kl_beta: i32,
  pull_shift: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> lp: array<i32>;
@group(0) @binding(2) var<storage, read> old: array<i32>;
@group(0) @binding(3) var<storage, read> adv: array<i32>;
@group(0) @binding(4) var<storage, read> mask: array<u32>;
// read only when kl_beta ≠ 0 (the host binds one unused word without a reference)
@group(0) @binding(5) var<storage, read> ref_lp: array<i32>;
@group(0) @binding(6) var<storage, read_write> loss: array<i32>;
@group(0) @binding(7) var<storage, read_write> grad: array<i32>;
@group(0) @binding(8) var<storage, read_write> kl: array<i32>;

override WG_X: u32 = 64u;

// src/kernels/ref/grpo.ts RATIO_EXP: ratios at 2^-24
const RATIO_EXP: i32 = -24;
// src/kernels/ref/grpo.ts KL_EXP, its 1 and KL_LOG_RATIO_MIN/MAX (−64 and 4) at 2^KL_EXP
const KL_EXP: i32 = -24;
const KL_ONE: i32 = 16777216;
const KL_LOG_RATIO_MIN: i32 = -1073741824;
const KL_LOG_RATIO_MAX: i32 = 67108864;

struct Token {
  // mulRne(A, r or its bound, s); the unclipped branch's A·r is the gradient's numerator
  term: i32,
  unclipped: bool,
  // the KL penalty's k3 at 2^KL_EXP and its gradient numerator β(1 − e^d) at the term's exponent
  k3: i32,
  pull: i32,
}

fn token(i: u32) -> Token {
  let a = adv[i];
  var d = 0;
  var passes = 1;
  if (params.kl_beta != 0) {
    d = clamp(
      rne_sat32(i64_sub(i64_from_i32(ref_lp[i]), i64_from_i32(lp[i])), KL_EXP - params.lp_exp),
      KL_LOG_RATIO_MIN,
      KL_LOG_RATIO_MAX,
    );
    passes = 2;
  }
  // one call site of exp_fixed for the ratio and e^d (and of div_rne_u64 for both means, below): with
  // two of each, SwiftShader compiled this shader in minutes instead of seconds
  var x = i64_sub(i64_from_i32(lp[i]), i64_from_i32(old[i]));
  var x_exp = params.lp_exp;
  var out_exp = RATIO_EXP;
  var r = 0;
  var e = KL_ONE; // e^0: k3 and pull are 0 without a penalty
  for (var p = 0; p < passes; p++) {
    let v = exp_fixed(x, x_exp, out_exp, LOG2E_Q30);
    if (p == 0) {
      r = v;
      x = i64_from_i32(d);
      x_exp = KL_EXP;
      out_exp = KL_EXP;
    } else {
      e = v;
    }
  }
  var unclipped = r >= params.lo;
  var bound = params.lo;
  if (a >= 0) {
    unclipped = r <= params.hi;
    bound = params.hi;
  }
  let pull = mul_rne_sat32(params.kl_beta, KL_ONE - e, params.pull_shift);
  return Token(mul_rne_sat32(a, select(bound, r, unclipped), params.s), unclipped, e - d - KL_ONE, pull);
}

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, WG_X);
  let first = i == 0u;
  if (i >= params.t && !first) {
    return;
  }
  // invocation 0 walks every token (for the loss), the others their own; one call site of token()
  // keeps the compiled shader small
  var sum = I64(0, 0u);
  var kl_sum = I64(0, 0u);
  for (var j = select(i, 0u, first); j < select(i + 1u, params.t, first); j++) {
    var g = 0;
    if (mask[j] != 0u) {
      let tok = token(j);
      sum = i64_sub(sum, i64_from_i32(tok.term));
      kl_sum = i64_add(kl_sum, i64_from_i32(tok.k3));
      // each addend is below 2^29 in magnitude (grpoScalars' eq)
      let num = select(0, -tok.term, tok.unclipped) + tok.pull;
      g = div_rne(num < 0, u32(abs(num)), params.count, params.k);
    }
    if (j == i) {
      grad[i] = g;
    }
  }
  if (first) {
    // the surrogate's and the KL's means, by one call site of div_rne_u64
    var sums = array<I64, 2>(sum, kl_sum);
    var means = array<i32, 2>(0, 0);
    for (var q = 0; q < 2 && params.count > 0u; q++) {
      let m = wide_from_i64(sums[q]);
      means[q] = div_rne_u64(m.neg, m.mag.xy, params.count, 0);
    }
    let surrogate = rne_sat32(i64_from_i32(means[0]), params.loss_shift);
    // KL_EXP is the loss's exponent: β·kl is one rounding of a Q30 product
    loss[0] = sat32(i64_add(i64_from_i32(surrogate), i64_from_i32(mul_rne_sat32(params.kl_beta, means[1], 30))));
    kl[0] = means[1];
  }
}
