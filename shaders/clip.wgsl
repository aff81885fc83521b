// The reduction of gradient-norm clipping (src/kernels/ref/clip.ts): exact sums of squares of i32
// mantissas as 128-bit magnitudes (vec4<u32>, x lowest). Prepended: shaders/int64.wgsl,
// shaders/wide.wgsl. The order is fixed by the shapes alone (src/kernels/gpu/clip-kernel.ts):
//   op 0 (chunks): invocation c sums v² over its chunk, ranges[2c] ≤ j < ranges[2c + 1] of the
//                  concatenated tensors, in index order (chunks never cross a tensor);
//   op 1 (tensors): invocation t sums the chunk sums ranges[2t] ≤ c < ranges[2t + 1], in chunk order.
// Every partial is an exact integer (a tensor's sum stays below 2^62·2^32 for 2^32 elements), so no
// schedule can change a bit; the host adds the tensors' sums at their exponents and scales.

struct Params {
  op: u32,
  count: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// op 0: gradient mantissas; op 1: the chunk sums, four words each
@group(0) @binding(1) var<storage, read> x: array<i32>;
@group(0) @binding(2) var<storage, read> ranges: array<u32>;
@group(0) @binding(3) var<storage, read_write> sums: array<u32>;

override WG_X: u32 = 64u;

const OP_CHUNKS: u32 = 0u;

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flat_index(gid, nwg, WG_X);
  if (i >= params.count) {
    return;
  }
  var total = vec4<u32>(0u);
  for (var j = ranges[2u * i]; j < ranges[2u * i + 1u]; j++) {
    if (params.op == OP_CHUNKS) {
      let v = wide_from_i32(x[j]).mag.x;
      let sq = mul_u32(v, v);
      total = u128_add(total, vec4<u32>(sq.x, sq.y, 0u, 0u));
    } else {
      let at = 4u * j;
      total = u128_add(total, bitcast<vec4<u32>>(vec4<i32>(x[at], x[at + 1u], x[at + 2u], x[at + 3u])));
    }
  }
  for (var w = 0u; w < 4u; w++) {
    sums[4u * i + w] = total[w];
  }
}
