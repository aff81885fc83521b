// Reproducible rotary embedding (rotate-half layout), mirroring src/kernels/ref/rope.ts bit for bit.
// Prepended: shaders/int64.wgsl, shaders/wide.wgsl. One invocation per rotated pair (a, b) =
// (x_i, x_{i+d/2}) of a head, with c, s the Q30 table entries of the row's position (s negated for the
// inverse rotation):
//   out_i       = sat32(rne(mulRne(a, c, 10) − mulRne(b, s, 10), 20))
//   out_{i+d/2} = sat32(rne(mulRne(b, c, 10) + mulRne(a, s, 10), 20))

struct Params {
  pairs: u32,
  width: u32,
  half: u32,
  // 1 rotates backwards (the adjoint: RoPE's backward pass)
  inverse: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<i32>;
@group(0) @binding(2) var<storage, read> positions: array<u32>;
@group(0) @binding(3) var<storage, read> cos_table: array<i32>;
@group(0) @binding(4) var<storage, read> sin_table: array<i32>;
@group(0) @binding(5) var<storage, read_write> out: array<i32>;

override WG_X: u32 = 64u;

// guard bits of the two rounded products before the final rounding
const GUARD: i32 = 20;

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = flat_index(gid, nwg, WG_X);
  if (p >= params.pairs) {
    return;
  }
  let half = params.half;
  let per_row = params.width / 2u;
  let row = p / per_row;
  let in_row = p % per_row;
  let head = in_row / half;
  let i = in_row % half;
  let ia = row * params.width + head * 2u * half + i;
  let t = positions[row] * half + i;
  let c = cos_table[t];
  var s = sin_table[t];
  if (params.inverse == 1u) {
    s = -s;
  }
  let a = i64_from_i32(x[ia]);
  let b = i64_from_i32(x[ia + half]);
  let ac = mul_rne(a, c, 30 - GUARD);
  let bs = mul_rne(b, s, 30 - GUARD);
  let as_ = mul_rne(a, s, 30 - GUARD);
  let bc = mul_rne(b, c, 30 - GUARD);
  out[ia] = rne_sat32(i64_sub(ac, bs), GUARD);
  out[ia + half] = rne_sat32(i64_add(bc, as_), GUARD);
}
