// Fast f32 matmul, the yardstick for shaders/matmul.wgsl: C[M, N] = A[M, K]·op(B), where op(B) = Bᵀ for
// B stored [N, K] (trans_b = 1, torch.nn.Linear's layout, the model's linear) or B as stored [K, N].
// Any summation order and the GPU's own f32 rounding: fast, not reproducible.
// Each 16×16 workgroup computes a 64×64 tile of C stepping K by 16 through shared-memory tiles of A and
// B; each invocation keeps a 4×4 register block. The block's rows are ty + 16·i and its columns
// tx + 16·j (strided, not contiguous) so neighbouring invocations read neighbouring shared words and
// write neighbouring words of C.

struct Params {
  m: u32,
  n: u32,
  k: u32,
  trans_b: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

// invocations per side of the workgroup, outputs per side of the register block, tile sides
const WG: u32 = 16u;
const TILE: u32 = 64u; // WG · 4
const TILE_K: u32 = 16u;
// tile elements each invocation loads: 64·16 / (16·16)
const LOADS: u32 = 4u;

// A tile as [kk][row] and B tile as [kk][col]: the inner loop reads both along a row
var<workgroup> a_tile: array<array<f32, TILE>, TILE_K>;
var<workgroup> b_tile: array<array<f32, TILE>, TILE_K>;

fn load_a(row: u32, kk: u32) -> f32 {
  if (row < params.m && kk < params.k) {
    return a[row * params.k + kk];
  }
  return 0.0;
}

// element (kk, col) of op(B)
fn load_b(kk: u32, col: u32) -> f32 {
  if (col >= params.n || kk >= params.k) {
    return 0.0;
  }
  if (params.trans_b == 1u) {
    return b[col * params.k + kk];
  }
  return b[kk * params.n + col];
}

@compute @workgroup_size(WG, WG, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let row0 = wid.y * TILE;
  let col0 = wid.x * TILE;
  let t = lid.y * WG + lid.x;
  var acc: array<vec4<f32>, 4>;
  for (var k0 = 0u; k0 < params.k; k0 += TILE_K) {
    for (var r = 0u; r < LOADS; r++) {
      let e = t + r * WG * WG;
      // consecutive invocations read consecutive addresses: along K for A (and Bᵀ), along N for B
      a_tile[e % TILE_K][e / TILE_K] = load_a(row0 + e / TILE_K, k0 + e % TILE_K);
      if (params.trans_b == 1u) {
        b_tile[e % TILE_K][e / TILE_K] = load_b(k0 + e % TILE_K, col0 + e / TILE_K);
      } else {
        b_tile[e / TILE][e % TILE] = load_b(k0 + e / TILE, col0 + e % TILE);
      }
    }
    workgroupBarrier();
    for (var kk = 0u; kk < TILE_K; kk++) {
      let bv = vec4<f32>(
        b_tile[kk][lid.x],
        b_tile[kk][lid.x + WG],
        b_tile[kk][lid.x + 2u * WG],
        b_tile[kk][lid.x + 3u * WG],
      );
      for (var i = 0u; i < 4u; i++) {
        acc[i] = fma(vec4<f32>(a_tile[kk][lid.y + i * WG]), bv, acc[i]);
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let row = row0 + lid.y + i * WG;
    for (var j = 0u; j < 4u; j++) {
      let col = col0 + lid.x + j * WG;
      if (row < params.m && col < params.n) {
        c[row * params.n + col] = acc[i][j];
      }
    }
  }
}
