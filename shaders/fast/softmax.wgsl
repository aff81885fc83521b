// Fast f32 row softmax, the yardstick for shaders/softmax.wgsl: out[r, j] = exp(x[r, j] − max_r) / Σ_j …
// One workgroup per row: its invocations stride over the row's columns and combine their partial max
// and sum with shaders/fast/reduce.wgsl's tree reductions (prepended by the host). Any order, the GPU's
// own exp: fast, not reproducible.

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

// invocations per row: a power of two the host picks from the row length (src/kernels/fast/fast-softmax.ts)
override WG: u32 = 64u;

@compute @workgroup_size(WG, 1, 1)
fn main(
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(workgroup_id) wid: vec3<u32>,
  @builtin(num_workgroups) nwg: vec3<u32>,
) {
  let row = wid.x + wid.y * nwg.x; // 2-D grid past 65535 rows
  if (row >= params.rows) {
    return;
  }
  let t = lid.x;
  let base = row * params.cols;
  var m = LOWEST;
  for (var j = t; j < params.cols; j += WG) {
    m = max(m, x[base + j]);
  }
  m = reduce_max(t, m);
  var s = 0.0;
  for (var j = t; j < params.cols; j += WG) {
    let e = exp(x[base + j] - m);
    out[base + j] = e; // each invocation rescales only the entries it wrote: no barrier needed
    s += e;
  }
  let inv = 1.0 / reduce_sum(t, s);
  for (var j = t; j < params.cols; j += WG) {
    out[base + j] *= inv;
  }
}
