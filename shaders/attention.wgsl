// Causal grouped-query attention forward, mirroring src/kernels/ref/attention.ts bit for bit together
// with shaders/softmax.wgsl, which computes the probabilities between the scores and P·V passes
// (src/kernels/gpu/attention-kernel.ts chains them). Prepended: shaders/int64.wgsl, shaders/wide.wgsl.
// Stacked rows are (sequence b, head h, query r) in that order, as in the twin.
//   narrow: per row of x [rows, cols], the twin's narrowRows shift (fitShift of the row's max |x|)
//   scores: per stacked row, score[j] = sat32(rne(Σ_c rne(q_c, qs)·rne(k_jc, ks), SCORE_EXP − eq − ek))
//           for every key j of the sequence (int16 mantissas, exact I64 sum; eq, ek the row exponents)
//   pv:     per stacked row, out[c] = sat32(rne(Σ_j min(2^15 − 1, rne(p_j, 15))·v_jc, 15)) at v's
//           exponent (P at 2^-15 times wide v, exact 128-bit sum)
// The backward (attentionBackward) adds per-element ops, each an exact 128-bit sum of products of an
// int16 operand (x) and a wide or int16 one (y), rounded once by `shift` (the twin's per-block matmuls):
//   p15:    min(2^15 − 1, rne(p, 15)) of every probability
//   dp:     [B·H·S, S]  Σ_c dOut[b·S + r, h·d + c]·v[b·S + j, kv·d + c]
//   dq:     [B·S, H·d]  Σ_j dS[(b·H + h)·S + r, j]·k[b·S + j, kv·d + c]
//   dkv:    [B·S, KV·d] Σ_(h of kv's group) Σ_r x[(b·H + h)·S + r, j]·y[b·S + r, h·d + c]
//           (dS with q for dK, P at 2^-15 with dOut for dV)

struct Params {
  op: u32,
  rows: u32,
  cols: u32,
  seq: u32,
  queries: u32,
  heads: u32,
  group: u32,
  d: u32,
  shift: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
// narrow: the tensor; scores: q [B·Q, H·d]; pv: probabilities [B·H·Q, S] in Q30
@group(0) @binding(1) var<storage, read> x: array<i32>;
// scores: k [B·S, KV·d]; pv: v [B·S, KV·d]
@group(0) @binding(2) var<storage, read> y: array<i32>;
@group(0) @binding(3) var<storage, read> x_shift: array<i32>;
@group(0) @binding(4) var<storage, read> y_shift: array<i32>;
@group(0) @binding(5) var<storage, read_write> out: array<i32>;

override WG_X: u32 = 64u;

const OP_NARROW: u32 = 0u;
const OP_SCORES: u32 = 1u;
const OP_P15: u32 = 3u;
const OP_DP: u32 = 4u;
const OP_DQ: u32 = 5u;
const OP_DKV: u32 = 6u;

// A probability at 2^-15 as P·V takes it (p = 1 saturates to 1 − 2^-15).
fn p15(p: i32) -> i32 {
  return min(I16_MAX, rne_sat32(i64_from_i32(p), 15));
}

// x·y added to an exact sum.
fn mac(sum: Wide, x: i32, y: i32) -> Wide {
  return wide_add(sum, wide_mul_i32(wide_from_i32(y), x));
}

// The backward's per-element ops (one invocation per output element e).
fn backward(e: u32) -> i32 {
  let s = params.seq;
  let d = params.d;
  let hd = params.heads * d;
  let kv_cols = params.heads / params.group * d;
  var sum = Wide(false, vec4<u32>(0u));
  if (params.op == OP_DP) {
    let row = e / s;
    let j = e % s;
    let r = row % s;
    let h = (row / s) % params.heads;
    let b = row / (s * params.heads);
    for (var c = 0u; c < d; c++) {
      sum = mac(sum, x[(b * s + r) * hd + h * d + c], y[(b * s + j) * kv_cols + (h / params.group) * d + c]);
    }
  } else if (params.op == OP_DQ) {
    let col = e % hd;
    let h = col / d;
    let c = col % d;
    let r = (e / hd) % s;
    let b = e / (hd * s);
    for (var j = 0u; j < s; j++) {
      sum = mac(sum, x[((b * params.heads + h) * s + r) * s + j], y[(b * s + j) * kv_cols + (h / params.group) * d + c]);
    }
  } else {
    let col = e % kv_cols;
    let kv = col / d;
    let c = col % d;
    let j = (e / kv_cols) % s;
    let b = e / (kv_cols * s);
    for (var g = 0u; g < params.group; g++) {
      let h = kv * params.group + g;
      for (var r = 0u; r < s; r++) {
        sum = mac(sum, x[((b * params.heads + h) * s + r) * s + j], y[(b * s + r) * hd + h * d + c]);
      }
    }
  }
  return wide_sat32(wide_rne(sum, params.shift));
}

// The int16 mantissa of an i32 value under a narrowing shift.
fn narrowed(v: i32, s: i32) -> i32 {
  return rne_sat32(i64_from_i32(v), s);
}

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = flat_index(gid, nwg, WG_X);
  if (row >= params.rows) {
    return;
  }
  if (params.op == OP_P15) {
    out[row] = p15(x[row]);
    return;
  }
  if (params.op >= OP_DP) {
    out[row] = backward(row);
    return;
  }
  if (params.op == OP_NARROW) {
    var m = 0u;
    for (var c = 0u; c < params.cols; c++) {
      m = max(m, wide_from_i32(x[row * params.cols + c]).mag.x);
    }
    out[row] = fit_shift16(m);
    return;
  }
  let r = row % params.queries;
  let h = (row / params.queries) % params.heads;
  let b = row / (params.queries * params.heads);
  let kv = h / params.group;
  let kv_cols = params.heads / params.group * params.d;
  if (params.op == OP_SCORES) {
    let q_row = b * params.queries + r;
    let qs = x_shift[q_row];
    let q_at = q_row * params.heads * params.d + h * params.d;
    for (var j = 0u; j < params.seq; j++) {
      let k_row = b * params.seq + j;
      let ks = y_shift[k_row];
      let k_at = k_row * kv_cols + kv * params.d;
      var sum = I64(0, 0u);
      for (var c = 0u; c < params.d; c++) {
        sum = i64_add(sum, i64_from_i32(narrowed(x[q_at + c], qs) * narrowed(y[k_at + c], ks)));
      }
      out[row * params.seq + j] = rne_sat32(sum, params.shift - qs - ks);
    }
    return;
  }
  // op 2, pv
  let out_at = (b * params.queries + r) * params.heads * params.d + h * params.d;
  for (var c = 0u; c < params.d; c++) {
    var sum = Wide(false, vec4<u32>(0u));
    for (var j = 0u; j < params.seq; j++) {
      sum = mac(sum, p15(x[row * params.seq + j]), y[(b * params.seq + j) * kv_cols + kv * params.d + c]);
    }
    out[out_at + c] = wide_sat32(wide_rne(sum, 15));
  }
}
