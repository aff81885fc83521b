// Reproducible embedding gather and its gradient, mirroring src/kernels/ref/embedding.ts bit for bit.
// Prepended: shaders/int64.wgsl, shaders/wide.wgsl. One invocation per output element:
//   gather:      out[t, j] = table[ids[t], j] (exact)
//   scatter-add: out[v, j] = sat32(rne(Σ_{t: ids[t] = v} dOut[t, j], s)); the sum is exact in an I64
//                (≤ 2^22 rows of i32) and runs over t in order, so nothing depends on the schedule.

struct Params {
  op: u32,
  n: u32,
  d: u32,
  t: u32,
  s: i32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<i32>;
@group(0) @binding(2) var<storage, read> ids: array<i32>;
@group(0) @binding(3) var<storage, read_write> out: array<i32>;

override WG_X: u32 = 64u;

const OP_GATHER: u32 = 0u;

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, WG_X);
  if (i >= params.n) {
    return;
  }
  let row = i / params.d;
  let j = i % params.d;
  if (params.op == OP_GATHER) {
    out[i] = src[u32(ids[row]) * params.d + j];
    return;
  }
  var sum = I64(0, 0u);
  for (var t = 0u; t < params.t; t++) {
    if (u32(ids[t]) == row) {
      sum = i64_add(sum, i64_from_i32(src[t * params.d + j]));
    }
  }
  out[i] = rne_sat32(sum, params.s);
}
