// Workgroup tree reductions shared by the fast f32 kernels (prepended by their hosts). The including
// shader declares WG (a const or an override), its workgroup size along x, a power of two; every
// invocation of the workgroup must call these from uniform control flow, and every one gets the result.

// below every finite f32 score, without relying on infinities (WGSL lets implementations drop them)
const LOWEST: f32 = -3.0e38;

var<workgroup> red: array<f32, WG>;

fn reduce_max(t: u32, v: f32) -> f32 {
  red[t] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (t < s) {
      red[t] = max(red[t], red[t + s]);
    }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier(); // everyone has read red[0] before the next reduction writes
  return r;
}

fn reduce_sum(t: u32, v: f32) -> f32 {
  red[t] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (t < s) {
      red[t] += red[t + s];
    }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}
