// Reproducible row softmax, log-softmax, token log-probs and cross-entropy, mirroring
// src/kernels/ref/softmax.ts, logprob.ts and cross-entropy.ts bit for bit. Prepended:
// shaders/int64.wgsl, shaders/wide.wgsl, shaders/fixed.wgsl. One invocation per row does the row's
// reductions sequentially (max, then the exact I64 sum of the exps), so the bits depend on the shape
// only, never on the workgroup size.
//   softmax:     e_j = expFixed(x_j − max) in Q30; den = rne(Σe, shift) < 2^31;
//                p_j = divRne(e_j, den, 30 − shift)
//   log-softmax: sat32(rne(mulRne(x_j − max, scale, 30 + w − x_exp) − rne(lnQ30(Σe), w + 30),
//                out_exp − w))
//   log-prob:    the log-softmax entry of the row's target
//   log-prob backward: sat32(mulRne(g_row, [j = target] − p_j, shift)) with p the row's softmax
//   mean NLL:    divRne(−Σ x, rows, 0) over a vector of log-probs (cross-entropy), one invocation
//   softmax backward (two passes, the twin's softmaxBackward; x = p, g = dp, w = guard bits):
//     u:  dot = Σ_j mulRne(p_j, dp_j, 30 − w) (exact I64, index order); u_j = sat32(rne(dp_j·2^w − dot, shift))
//     dx: dx_j = sat32(mulRne(p_j, u_j, shift)) (g = u)

struct Params {
  op: u32,
  rows: u32,
  n: u32,
  x_exp: i32,
  log2e: i32,
  out_exp: i32,
  w: i32,
  scale: i32,
  shift: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<i32>;
// columns [0, valid[row]) take part (causal masks); the rest get probability 0 / log 0
@group(0) @binding(2) var<storage, read> valid: array<u32>;
@group(0) @binding(3) var<storage, read> targets: array<u32>;
@group(0) @binding(4) var<storage, read> g: array<i32>;
@group(0) @binding(5) var<storage, read_write> out: array<i32>;

override WG_X: u32 = 64u;

const OP_SOFTMAX: u32 = 0u;
const OP_LOG_SOFTMAX: u32 = 1u;
const OP_LOG_PROB: u32 = 2u;
const OP_LOG_PROB_BACKWARD: u32 = 3u;
const OP_MEAN_NLL: u32 = 4u;
const OP_BACKWARD_U: u32 = 5u;
const OP_BACKWARD_DX: u32 = 6u;

fn row_exp(base: u32, j: u32, row_max: i32) -> i32 {
  let diff = i64_sub(i64_from_i32(x[base + j]), i64_from_i32(row_max)); // (−2^32, 0]
  return exp_fixed(diff, params.x_exp, -30, params.log2e);
}

fn log_prob(base: u32, j: u32, row_max: i32, ln_sum: I64) -> i32 {
  let diff = i64_sub(i64_from_i32(x[base + j]), i64_from_i32(row_max));
  let d = mul_rne(diff, params.scale, 30 + params.w - params.x_exp);
  return rne_sat32(i64_sub(d, ln_sum), params.out_exp - params.w);
}

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = flat_index(gid, nwg, WG_X);
  if (params.op == OP_MEAN_NLL) {
    if (row == 0u) {
      var total = I64(0, 0u);
      for (var t = 0u; t < params.rows; t++) {
        total = i64_add(total, i64_from_i32(x[t]));
      }
      let m = wide_from_i64(total); // −Σ: the sign flips
      out[0] = div_rne_u64(!m.neg, m.mag.xy, params.rows, 0);
    }
    return;
  }
  if (row >= params.rows) {
    return;
  }
  let n = params.n;
  let base = row * n;
  if (params.op == OP_BACKWARD_U) {
    var dot = I64(0, 0u);
    for (var j = 0u; j < n; j++) {
      dot = i64_add(dot, mul_rne(i64_from_i32(x[base + j]), g[base + j], 30 - params.w));
    }
    for (var j = 0u; j < n; j++) {
      let scaled = i64_shl(i64_from_i32(g[base + j]), u32(params.w));
      out[base + j] = rne_sat32(i64_sub(scaled, dot), params.shift);
    }
    return;
  }
  if (params.op == OP_BACKWARD_DX) {
    for (var j = 0u; j < n; j++) {
      out[base + j] = mul_rne_sat32(x[base + j], g[base + j], params.shift);
    }
    return;
  }
  let cols = valid[row];
  var row_max = -I32_MAX;
  for (var j = 0u; j < cols; j++) {
    row_max = max(row_max, x[base + j]);
  }
  var sum = I64(0, 0u);
  for (var j = 0u; j < cols; j++) {
    sum = i64_add(sum, i64_from_i32(row_exp(base, j, row_max)));
  }
  if (params.op == OP_SOFTMAX || params.op == OP_LOG_PROB_BACKWARD) {
    let shift = max(0, i32(i64_bit_length(sum)) - 31);
    let den = rne_i64(sum, shift).lo; // ≤ 2^31
    for (var j = 0u; j < n; j++) {
      var p = 0;
      if (j < cols) {
        p = div_rne(false, u32(row_exp(base, j, row_max)), den, 30 - shift);
      }
      if (params.op == OP_SOFTMAX) {
        out[base + j] = p;
      } else {
        let onehot_minus_p = select(0, ONE_Q30, j == targets[row]) - p;
        out[base + j] = mul_rne_sat32(g[row], onehot_minus_p, params.shift);
      }
    }
    return;
  }
  let ln_sum = rne_i64(ln_q30(sum, -30), params.w + 30);
  if (params.op == OP_LOG_SOFTMAX) {
    for (var j = 0u; j < n; j++) {
      var v = -I32_MAX;
      if (j < cols) {
        v = log_prob(base, j, row_max, ln_sum);
      }
      out[base + j] = v;
    }
    return;
  }
  out[row] = log_prob(base, targets[row], row_max, ln_sum);
}
