// Fast f32 causal grouped-query attention forward, the yardstick for shaders/attention.wgsl (with the
// softmax between its passes). Layout as src/kernels/ref/attention.ts: q and out [B·S, H·d], k and v
// [B·S, KV·d]; query head h reads key/value head h / (H / KV); every position attends to itself and
// the positions before it in its sequence.
// Flash-style: one workgroup per (query row, head) walks the keys in chunks of WG with an online
// softmax (running max m, running sum l, output rescaled by exp(m_old − m_new)), so no score matrix is
// ever stored. Per chunk, invocation t scores key t; then d·(WG/d) invocations split P·V by channel
// c = t % d and key lane t / d, and the first d invocations fold the lanes into their channel.
// Reductions: shaders/fast/reduce.wgsl (prepended by the host). Any order: fast, not reproducible.

struct Params {
  // rows of q: B·S
  rows: u32,
  seq: u32,
  heads: u32,
  // query heads per key/value head
  group: u32,
  // head dimension; divides WG
  d: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read> v: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

// keys per chunk, and the largest head dimension
const WG: u32 = 64u;

var<workgroup> q_row: array<f32, WG>;
var<workgroup> p: array<f32, WG>;
var<workgroup> part: array<f32, WG>;

@compute @workgroup_size(WG, 1, 1)
fn main(
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(workgroup_id) wid: vec3<u32>,
  @builtin(num_workgroups) nwg: vec3<u32>,
) {
  let w = wid.x + wid.y * nwg.x; // 2-D grid past 65535 (row, head) pairs
  if (w >= params.rows * params.heads) {
    return;
  }
  let t = lid.x;
  let d = params.d;
  let row = w / params.heads;
  let h = w % params.heads;
  let pos = row % params.seq;
  let first = row - pos; // this sequence's first key row
  let q_cols = params.heads * d;
  let kv_cols = (params.heads / params.group) * d;
  let kv_col = (h / params.group) * d;
  if (t < d) {
    q_row[t] = q[row * q_cols + h * d + t] * inverseSqrt(f32(d));
  }
  workgroupBarrier();
  let lanes = WG / d;
  let c = t % d;
  let lane = t / d;
  var m = LOWEST;
  var l = 0.0;
  var acc = 0.0; // output channel t, for t < d
  for (var j0 = 0u; j0 <= pos; j0 += WG) {
    let j = j0 + t;
    var s = LOWEST;
    if (j <= pos) {
      let kj = (first + j) * kv_cols + kv_col;
      s = 0.0;
      for (var i = 0u; i < d; i++) {
        s = fma(q_row[i], k[kj + i], s);
      }
    }
    let m_new = max(m, reduce_max(t, s));
    let corr = exp(m - m_new);
    var e = 0.0;
    if (j <= pos) {
      e = exp(s - m_new);
    }
    p[t] = e; // read after reduce_sum's barriers
    l = l * corr + reduce_sum(t, e);
    m = m_new;
    let count = min(WG, pos + 1u - j0);
    var ps = 0.0;
    for (var jj = lane; jj < count; jj += lanes) {
      ps = fma(p[jj], v[(first + j0 + jj) * kv_cols + kv_col + c], ps);
    }
    part[t] = ps;
    workgroupBarrier();
    if (t < d) {
      var sum = 0.0;
      for (var ln = 0u; ln < lanes; ln++) {
        sum += part[ln * d + t];
      }
      acc = acc * corr + sum;
    }
    workgroupBarrier(); // p and part are rewritten by the next chunk
  }
  if (t < d) {
    out[row * q_cols + h * d + t] = acc / l;
  }
}
