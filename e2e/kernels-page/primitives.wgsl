// Test-only probe of the shared fixed-point helpers (shaders/int64.wgsl, shaders/fixed.wgsl): one
// invocation per input, each calling one helper, so that the e2e compares them directly with the
// twin's scalar functions over wide ranges and exact ties that whole ops rarely reach.
//   op 0: divRne(a, b, s)          op 1: lnFixed(u, s, out_exp)      op 2: rsqrtFixed(u, s, out_exp)
//   op 3: expFixed(u, s, out_exp)  with u the I64 (hi = b, lo = a)

struct Params {
  op: u32,
  n: u32,
  s: i32,
  out_exp: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<i32>;
@group(0) @binding(2) var<storage, read> b: array<i32>;
@group(0) @binding(3) var<storage, read_write> out: array<i32>;

override WG_X: u32 = 64u;

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, WG_X);
  if (i >= params.n) {
    return;
  }
  let u = I64(b[i], bitcast<u32>(a[i]));
  if (params.op == 0u) {
    out[i] = div_rne(a[i] < 0, u32(abs(a[i])), u32(b[i]), params.s);
  } else if (params.op == 1u) {
    out[i] = rne_sat32(ln_q30(u, params.s), 30 + params.out_exp);
  } else if (params.op == 2u) {
    out[i] = rsqrt_fixed(u, params.s, params.out_exp);
  } else {
    out[i] = exp_fixed(u, params.s, params.out_exp, LOG2E_Q30);
  }
}
