// Reproducible elementwise nonlinear ops, one invocation per element, mirroring
// src/kernels/ref/exp.ts and silu.ts bit for bit. Prepended: shaders/int64.wgsl, shaders/wide.wgsl,
// shaders/fixed.wgsl.
//   exp:          expFixed(x, x_exp, out_exp, log2e)
//   sigmoid:      sigmoidQ30(x, x_exp)
//   silu:         x·σ(x) at x_exp
//   swiglu:       sat32(mulRne(silu(gate), up, shift))
//   swiglu dgate: t = sat32(mulRne(dy, up, shift)); sat32(mulRne(t, silu'(gate), shift2))
//   (the backward's dUp is the swiglu op with dy in place of up)

struct Params {
  op: u32,
  n: u32,
  x_exp: i32,
  out_exp: i32,
  log2e: i32,
  shift: i32,
  shift2: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<i32>;
@group(0) @binding(2) var<storage, read> up: array<i32>;
@group(0) @binding(3) var<storage, read> dy: array<i32>;
@group(0) @binding(4) var<storage, read_write> out: array<i32>;

override WG_X: u32 = 64u;

const OP_EXP: u32 = 0u;
const OP_SIGMOID: u32 = 1u;
const OP_SILU: u32 = 2u;
const OP_SWIGLU: u32 = 3u;

// The twin's siluGradQ30: σ(x)·(1 + x·(1 − σ(x))) in Q30; its range [−0.1, 1.1] fits an i32.
fn silu_grad_q30(x: i32, x_exp: i32) -> i32 {
  let sig = sigmoid_q30(x, x_exp);
  let q = mul_rne_sat32(sig, ONE_Q30 - sig, 30); // σ(1 − σ) ≤ 2^28: never saturates
  return bitcast<i32>(i64_add(i64_from_i32(sig), mul_rne(i64_from_i32(x), q, -x_exp)).lo);
}

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, WG_X);
  if (i >= params.n) {
    return;
  }
  let v = x[i];
  if (params.op == OP_EXP) {
    out[i] = exp_fixed(i64_from_i32(v), params.x_exp, params.out_exp, params.log2e);
  } else if (params.op == OP_SIGMOID) {
    out[i] = sigmoid_q30(v, params.x_exp);
  } else if (params.op == OP_SILU || params.op == OP_SWIGLU) {
    // one call site of silu for both ops: SwiftShader compiles every inlined copy
    var y = silu_fixed(v, params.x_exp);
    if (params.op == OP_SWIGLU) {
      y = mul_rne_sat32(y, up[i], params.shift);
    }
    out[i] = y;
  } else {
    let t = mul_rne_sat32(dy[i], up[i], params.shift);
    out[i] = mul_rne_sat32(t, silu_grad_q30(v, params.x_exp), params.shift2);
  }
}
