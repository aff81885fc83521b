// Reproducible token sampling, one invocation per row, mirroring src/kernels/ref/sampling.ts and
// philox.ts bit for bit. Prepended: shaders/int64.wgsl, shaders/wide.wgsl (mul_u32).
//   greedy: argmax of the logits, ties to the lower token id
//   sample: over the row's Q30 probabilities (the softmax kernel's output at 1/T), candidates in the
//           order (probability descending, token id ascending); the first k are kept, stopping once
//           their mass reaches top_p; the Philox draw u (counter (step, position, 0, 0), key = seed)
//           gives threshold = ⌊u·mass/2^32⌋ and the token is the first kept one whose running mass
//           exceeds it. The order is found by repeated selection (the next candidate after the last
//           one taken), O(V) per kept token, and written to `order` so the draw walks it once.

struct Params {
  op: u32,
  rows: u32,
  v: u32,
  k: u32,
  top_p: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// logits (greedy) or Q30 probabilities (sample), [rows, v]
@group(0) @binding(1) var<storage, read> x: array<i32>;
// per row: seed word 0, seed word 1, step, position
@group(0) @binding(2) var<storage, read> keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> tokens: array<i32>;
// per row: the kept candidates' ids in order
@group(0) @binding(4) var<storage, read_write> order: array<u32>;

override WG_X: u32 = 64u;

const OP_GREEDY: u32 = 0u;

// Philox4x32-10 multipliers and Weyl key increments (src/kernels/ref/philox.ts)
const PHILOX_M0: u32 = 0xd2511f53u;
const PHILOX_M1: u32 = 0xcd9e8d57u;
const PHILOX_W0: u32 = 0x9e3779b9u;
const PHILOX_W1: u32 = 0xbb67ae85u;

// The first word of Philox4x32-10 at counter c under key k (the twin's drawU32).
fn philox_first(counter: vec4<u32>, key: vec2<u32>) -> u32 {
  var c = counter;
  var k = key;
  for (var round = 0; round < 10; round++) {
    let p0 = mul_u32(PHILOX_M0, c.x); // (lo, hi)
    let p1 = mul_u32(PHILOX_M1, c.z);
    c = vec4<u32>(p1.y ^ c.y ^ k.x, p1.x, p0.y ^ c.w ^ k.y, p0.x);
    k = k + vec2<u32>(PHILOX_W0, PHILOX_W1);
  }
  return c.x;
}

// Whether candidate (pj, j) comes after (pi, i) in the order: lower probability, or equal and higher id.
fn after(pj: i32, j: u32, pi: i32, i: u32) -> bool {
  return pj < pi || (pj == pi && j > i);
}

@compute @workgroup_size(WG_X, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let row = flat_index(gid, nwg, WG_X);
  if (row >= params.rows) {
    return;
  }
  let base = row * params.v;
  if (params.op == OP_GREEDY) {
    var best = 0u;
    for (var j = 1u; j < params.v; j++) {
      if (x[base + j] > x[base + best]) {
        best = j;
      }
    }
    tokens[row] = i32(best);
    return;
  }
  var kept = 0u;
  var mass = 0u;
  var last_p = 0;
  var last = 0u;
  for (; kept < params.k; kept++) {
    var next = params.v;
    for (var j = 0u; j < params.v; j++) {
      let pj = x[base + j];
      if (kept > 0u && !after(pj, j, last_p, last)) {
        continue;
      }
      if (next == params.v || after(x[base + next], next, pj, j)) {
        next = j;
      }
    }
    last = next;
    last_p = x[base + next];
    order[base + kept] = next;
    mass = mass + u32(last_p);
    if (mass >= params.top_p) {
      kept++;
      break;
    }
  }
  let key = vec2<u32>(keys[4u * row], keys[4u * row + 1u]);
  let u = philox_first(vec4<u32>(keys[4u * row + 2u], keys[4u * row + 3u], 0u, 0u), key);
  let threshold = mul_u32(u, mass).y;
  var running = 0u;
  for (var i = 0u; i < kept; i++) {
    let id = order[base + i];
    running = running + u32(x[base + id]);
    if (running > threshold) {
      tokens[row] = i32(id);
      return;
    }
  }
  tokens[row] = i32(order[base + kept - 1u]);
}
