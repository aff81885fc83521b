// Reproducible elementwise ops, one invocation per element, mirroring src/kernels/ref/elementwise.ts
// and narrow.ts bit for bit (the host, src/kernels/gpu/elementwise-kernel.ts, picks the exponents
// exactly as the twin does). Prepended: shaders/int64.wgsl, shaders/wide.wgsl.
//   add:        sat32(rne(a·2^da + b·2^db, s)), exact in 128 bits for gaps up to 96
//   mul:        sat32(mulRne(a, b or b[0], s))
//   requantize: sat32(rne(a, s)) (also narrow16, whose shift makes it fit int16)
//   neg:        −a (exact: the range is symmetric)

struct Params {
  op: u32,
  n: u32,
  da: u32,
  db: u32,
  s: i32,
  b_scalar: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<i32>;
@group(0) @binding(2) var<storage, read> b: array<i32>;
@group(0) @binding(3) var<storage, read_write> out: array<i32>;

override WG_X: u32 = 64u;

const OP_ADD: u32 = 0u;
const OP_MUL: u32 = 1u;
const OP_REQUANTIZE: u32 = 2u;

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, WG_X);
  if (i >= params.n) {
    return;
  }
  let x = a[i];
  if (params.op == OP_ADD) {
    let sum = wide_add(wide_shl(wide_from_i32(x), params.da), wide_shl(wide_from_i32(b[i]), params.db));
    out[i] = wide_sat32(wide_rne(sum, params.s));
  } else if (params.op == OP_MUL) {
    out[i] = mul_rne_sat32(x, b[select(i, 0u, params.b_scalar == 1u)], params.s);
  } else if (params.op == OP_REQUANTIZE) {
    out[i] = rne_sat32(i64_from_i32(x), params.s);
  } else {
    out[i] = -x;
  }
}
