// The GRPO clipped-ratio surrogate and its gradient, mirroring src/kernels/ref/grpo.ts bit for bit.
// Prepended: shaders/int64.wgsl, shaders/wide.wgsl, shaders/fixed.wgsl. One invocation per token
// computes the token's gradient; invocation 0 also sums the masked tokens' terms in token order (exact
// I64 integers, so the order cannot move a bit) and divides once:
//   r      = expFixed(lp − old) at 2^-24
//   unclipped = A ≥ 0 ? r ≤ hi : r ≥ lo   (hi = 1 + ε_high, lo = 1 − ε_low at 2^-24)
//   term   = mulRne(A, unclipped ? r : (A ≥ 0 ? hi : lo), s)     loss = rne(divRne(−Σ term, N), loss_shift)
//   grad   = unclipped ? divRne(−mulRne(A, r, s), N, k) : 0       (0 for masked-out tokens)

struct Params {
  t: u32,
  count: u32,
  lp_exp: i32,
  lo: i32,
  hi: i32,
  s: i32,
  k: i32,
  loss_shift: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> lp: array<i32>;
@group(0) @binding(2) var<storage, read> old: array<i32>;
@group(0) @binding(3) var<storage, read> adv: array<i32>;
@group(0) @binding(4) var<storage, read> mask: array<u32>;
@group(0) @binding(5) var<storage, read_write> loss: array<i32>;
@group(0) @binding(6) var<storage, read_write> grad: array<i32>;

override WG_X: u32 = 64u;

// src/kernels/ref/grpo.ts RATIO_EXP: ratios at 2^-24
const RATIO_EXP: i32 = -24;

struct Token {
  // mulRne(A, r or its bound, s); the unclipped branch's A·r is the gradient's numerator
  term: i32,
  unclipped: bool,
}

fn token(i: u32) -> Token {
  let r = exp_fixed(i64_sub(i64_from_i32(lp[i]), i64_from_i32(old[i])), params.lp_exp, RATIO_EXP, LOG2E_Q30);
  let a = adv[i];
  var unclipped = r >= params.lo;
  var bound = params.lo;
  if (a >= 0) {
    unclipped = r <= params.hi;
    bound = params.hi;
  }
  return Token(mul_rne_sat32(a, select(bound, r, unclipped), params.s), unclipped);
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
  for (var j = select(i, 0u, first); j < select(i + 1u, params.t, first); j++) {
    var g = 0;
    if (mask[j] != 0u) {
      let tok = token(j);
      sum = i64_sub(sum, i64_from_i32(tok.term));
      if (tok.unclipped) {
        g = div_rne(tok.term > 0, u32(abs(tok.term)), params.count, params.k);
      }
    }
    if (j == i) {
      grad[i] = g;
    }
  }
  if (first) {
    var mean = 0;
    if (params.count > 0u) {
      let m = wide_from_i64(sum);
      mean = div_rne_u64(m.neg, m.mag.xy, params.count, 0);
    }
    loss[0] = rne_sat32(i64_from_i32(mean), params.loss_shift);
  }
}
