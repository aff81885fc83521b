// Reproducible token sampling, one invocation per row, mirroring src/kernels/ref/sampling.ts and
// philox.ts bit for bit. Prepended: shaders/int64.wgsl, shaders/wide.wgsl (mul_u32), shaders/fixed.wgsl
// (div_rne).
//   greedy: argmax of the logits, ties to the lower token id
//   scale:  the twin's temperatureScaled: y_j = div_rne(x_j − max, T, 16), the gaps below the row's top
//           logit divided by the temperature (Q16), at the logits' exponent; the softmax kernel then
//           turns y into Q30 probabilities
//   sample: over the row's Q30 probabilities, candidates in the order (probability descending, token id
//           ascending); the first k are kept, stopping once their mass reaches top_p; the Philox draw
//           u (counter (step, position, 0, 0), key = seed) gives threshold = ⌊u·mass/2^32⌋ and the token
//           is the first kept one whose running mass exceeds it.
// The twin sorts; here both cuts (where the kept prefix ends, which kept token the draw lands on) are
// "the first candidate in the order at which the running count or mass reaches a limit", found
// without sorting: a binary search over the probability value t for the largest t whose candidates
// with probability ≥ t already reach the limit (31 passes over the row), then one pass over the ties
// at t in id order. O(32·V) per row whatever k and top_p keep, instead of O(V) per kept token.

struct Params {
  op: u32,
  rows: u32,
  v: u32,
  k: u32,
  top_p: u32,
  temperature: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// logits (greedy, scale) or Q30 probabilities (sample), [rows, v]
@group(0) @binding(1) var<storage, read> x: array<i32>;
// per row: seed word 0, seed word 1, step, position
@group(0) @binding(2) var<storage, read> keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> tokens: array<i32>;
// scale: the temperature-scaled logits, [rows, v]
@group(0) @binding(4) var<storage, read_write> scaled: array<i32>;

override WG_X: u32 = 64u;

const OP_GREEDY: u32 = 0u;
const OP_SCALE: u32 = 1u;
// any other op (2): sample

// Philox4x32-10 multipliers and Weyl key increments (src/kernels/ref/philox.ts)
const PHILOX_M0: u32 = 0xd2511f53u;
const PHILOX_M1: u32 = 0xcd9e8d57u;
const PHILOX_W0: u32 = 0x9e3779b9u;
const PHILOX_W1: u32 = 0xbb67ae85u;

// Above every probability of the row (they are Q30, at most 2^30 plus rounding): the binary search's
// "nothing reaches" end.
const P_BOUND: u32 = 0x80000000u;

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

// A prefix of the order (the candidates at or before (last_p, last)) and the limits a running prefix
// of it may reach: count ≥ count_limit or mass ≥ mass_limit, and never before its first candidate.
struct Cut {
  base: u32,
  last_p: u32,
  last: u32,
  count_limit: u32,
  mass_limit: u32,
}

struct Tally {
  count: u32,
  mass: u32,
}

// Whether candidate (p, j) comes at or before (cut.last_p, cut.last) in the order.
fn in_prefix(cut: Cut, p: u32, j: u32) -> bool {
  return p > cut.last_p || (p == cut.last_p && j <= cut.last);
}

fn reaches(cut: Cut, t: Tally) -> bool {
  return t.count > 0u && (t.count >= cut.count_limit || t.mass >= cut.mass_limit);
}

// Count and mass of the prefix's candidates with probability ≥ t (mass < 2^32: the row sums to ~2^30).
fn tally_from(cut: Cut, t: u32) -> Tally {
  var s = Tally(0u, 0u);
  for (var j = 0u; j < params.v; j++) {
    let p = u32(x[cut.base + j]);
    if (p >= t && in_prefix(cut, p, j)) {
      s.count = s.count + 1u;
      s.mass = s.mass + p;
    }
  }
  return s;
}

// The first candidate of the prefix, in the order, at which the running tally reaches the cut's
// limits; the prefix's last candidate if none does (the twin's fallback).
fn first_reaching(cut: Cut) -> u32 {
  // the largest t whose candidates with probability ≥ t reach the limits: lo reaches (or is 0), hi not
  var lo = 0u;
  var hi = P_BOUND;
  while (hi - lo > 1u) {
    let mid = lo + (hi - lo) / 2u;
    if (reaches(cut, tally_from(cut, mid))) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  // everything above lo falls short; the ties at lo, in id order, cross the limit
  var s = tally_from(cut, lo + 1u);
  for (var j = 0u; j < params.v; j++) {
    let p = u32(x[cut.base + j]);
    if (p == lo && in_prefix(cut, p, j)) {
      s.count = s.count + 1u;
      s.mass = s.mass + p;
      if (reaches(cut, s)) {
        return j;
      }
    }
  }
  return cut.last;
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
  if (params.op == OP_SCALE) {
    var top = x[base];
    for (var j = 1u; j < params.v; j++) {
      top = max(top, x[base + j]);
    }
    for (var j = 0u; j < params.v; j++) {
      // max − x_j ∈ [0, 2^32 − 2]: exact in wrapping u32 arithmetic, and div_rne's first step is a
      // plain u32 division, so gaps past 2^31 saturate like the twin's instead of wrapping
      let gap = bitcast<u32>(top) - bitcast<u32>(x[base + j]);
      scaled[base + j] = div_rne(true, gap, params.temperature, 16);
    }
    return;
  }
  // the kept prefix ends at the first candidate where k are kept or their mass reaches top_p; the
  // whole order ends at (probability 0, the largest id)
  let last = first_reaching(Cut(base, 0u, 0xffffffffu, params.k, params.top_p));
  let last_p = u32(x[base + last]);
  let mass = tally_from(Cut(base, last_p, last, 0u, 0u), 0u).mass;
  let key = vec2<u32>(keys[4u * row], keys[4u * row + 1u]);
  let u = philox_first(vec4<u32>(keys[4u * row + 2u], keys[4u * row + 3u], 0u, 0u), key);
  let threshold = mul_u32(u, mass).y; // < mass, so threshold + 1 does not wrap
  // the token: the first kept candidate whose running mass exceeds the threshold (no count limit)
  tokens[row] = i32(first_reaching(Cut(base, last_p, last, 0xffffffffu, threshold + 1u)));
}
