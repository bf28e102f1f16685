// dot as a tiled GEMM over a batch: C[z](m, n) = sum_k A[z](m, k) * B[z](k, n), with
//   A[z](m, k) = a[z * sab + m * sam + k * sak],  B[z](k, n) = b[z * sbb + k * sbk + n * sbn]
// and C(z, m, n) = c[z * scb + m * scm + n] (contiguous [batch, M, N] unless the host made
// a free axis group of b the batch). Strided reads let transposed operands (and batch axes
// in any single-stride position) go without a copy.
//
// Tiling (the specialization constants TM, TN, BK; the host picks them per call):
// - a workgroup of 256 invocations (16 x 16) computes a BM x BN = 16*TM x 16*TN tile of C;
// - each invocation keeps a TM x TN micro-tile of accumulators in registers, for rows
//   ty + 16*i and columns tx + 16*j: neighbouring invocations write neighbouring columns
//   (coalesced stores) and read neighbouring shared-memory words (no bank conflicts);
// - K advances BK at a time through shared memory (As[k][m], Bs[k][n], rows padded by one
//   word against bank conflicts when a tile is written along k); the next step's global
//   values are loaded into registers while the current step computes (one barrier pair per
//   step, global latency hidden behind the FMAs);
// - each tile element is loaded by consecutive invocations along the operand's unit-stride
//   axis (A_K_CONTIG / B_K_CONTIG), so global reads are coalesced for both orientations;
// - edges are bounds-checked (zeros enter the sums, stores are masked): any M, N, K >= 0;
// - tiles and batches past the launched grid are looped over (grid-stride over the linear
//   tile index and z), so any size fits maxComputeWorkGroupCount.
// Split K (MODE): when the output has too few tiles to fill the device and K is long, the
// host splits K into `splits` chunks of k_chunk; MODE 1 writes each chunk's sums, unrounded,
// to scratch [batch, splits, M, N] (z runs over batch * splits), and MODE 2 (one invocation
// per output element) adds a batch's partials in chunk order and stores them once.
// Loads, stores and the accumulator type ACC per dtype: linalg_float_io.glsl (f16/bf16 load
// to f32, accumulate in f32 and round once on store; f32 in f32; f64 in f64) and
// linalg_int_io.glsl (VKT_INT: the cpu's wrapping unsigned accumulation).
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : enable

layout(constant_id = 1) const uint DTYPE = DT_F32;
layout(constant_id = 2) const uint TM = 4;
layout(constant_id = 3) const uint TN = 4;
layout(constant_id = 4) const uint BK = 16;
layout(constant_id = 5) const bool A_K_CONTIG = true;
layout(constant_id = 6) const bool B_K_CONTIG = false;
layout(constant_id = 7) const uint MODE = 0;  // 0: C = A B; 1: partial sums; 2: add partials
// Tiles run in bands of GROUP_M tile rows, column by column inside a band, so workgroups
// resident together share A and B panels in L2 (1: plain row-major order).
layout(constant_id = 8) const uint GROUP_M = 8;

// The workgroup is 16 x 16 invocations (the host's workgroup size is 256).
const uint SIDE = 16;
const uint THREADS = SIDE * SIDE;
const uint BM = SIDE * TM;
const uint BN = SIDE * TN;
const uint LDA = BM + 1;  // shared row pitches
const uint LDB = BN + 1;
// Elements of the A and B tiles each invocation moves per step (BM*BK and BN*BK are
// multiples of 256 for the host's choices).
const uint LOADS_A = BM * BK / THREADS;
const uint LOADS_B = BN * BK / THREADS;

#ifdef VKT_INT
#include "linalg_int_io.glsl"
#else
#include "linalg_float_io.glsl"
#endif

#ifdef VKT_DOT_EPILOGUE
// vkt::compile's dot groups (compiled_dot.cpp) define it after this file: C's value c for
// element `at` of the contiguous output, through the epilogue, stored (MODE 0 and 2).
void dot_epilogue(uint at, ACC c);
#endif

#include "linalg_dot_push.glsl"

shared ACC As[BK * LDA];
shared ACC Bs[BK * LDB];

// Tile coordinates (row in the tile, k in the step) of the e-th element an invocation moves;
// consecutive e run along the operand's unit-stride axis.
uvec2 a_slot(uint e) { return A_K_CONTIG ? uvec2(e / BK, e % BK) : uvec2(e % BM, e / BM); }
uvec2 b_slot(uint e) { return B_K_CONTIG ? uvec2(e / BK, e % BK) : uvec2(e % BN, e / BN); }

// Sums over k in [k_begin, k_end) for the tile at (m0, n0) of batch bi, stored to C (or
// the scratch) at out_base + m * out_row + n.
void compute_tile(uint bi, uint k_begin, uint k_end, uint out_base, uint out_row, uint m0,
                  uint n0, uint tid) {
  const uint tx = tid % SIDE, ty = tid / SIDE;
  const uint a_base = bi * p.sab, b_base = bi * p.sbb;
  ACC acc[TM * TN];
  [[unroll]] for (uint i = 0; i < TM * TN; ++i) acc[i] = ACC(0);
  ACC next_a[LOADS_A];
  ACC next_b[LOADS_B];

  // Global values of the step at k0 into registers (zeros outside the matrices).
  #define FETCH(k0)                                                          \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                     \
      const uvec2 s = a_slot(tid + r * THREADS);                             \
      const uint gm = m0 + s.x, gk = (k0) + s.y;                             \
      next_a[r] = (gm < p.m && gk < k_end) ? load_a(a_base + gm * p.sam + gk * p.sak) : ACC(0); \
    }                                                                        \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                     \
      const uvec2 s = b_slot(tid + r * THREADS);                             \
      const uint gn = n0 + s.x, gk = (k0) + s.y;                             \
      next_b[r] = (gn < p.n && gk < k_end) ? load_b(b_base + gk * p.sbk + gn * p.sbn) : ACC(0); \
    }

  FETCH(k_begin)
  for (uint k0 = k_begin; k0 < k_end; k0 += BK) {
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {
      const uvec2 s = a_slot(tid + r * THREADS);
      As[s.y * LDA + s.x] = next_a[r];
    }
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {
      const uvec2 s = b_slot(tid + r * THREADS);
      Bs[s.y * LDB + s.x] = next_b[r];
    }
    barrier();
    if (k0 + BK < k_end) {
      FETCH(k0 + BK)
    }
    [[unroll]] for (uint kk = 0; kk < BK; ++kk) {
      ACC ar[TM];
      ACC br[TN];
      [[unroll]] for (uint i = 0; i < TM; ++i) ar[i] = As[kk * LDA + ty + SIDE * i];
      [[unroll]] for (uint j = 0; j < TN; ++j) br[j] = Bs[kk * LDB + tx + SIDE * j];
      [[unroll]] for (uint i = 0; i < TM; ++i) {
        [[unroll]] for (uint j = 0; j < TN; ++j) acc[i * TN + j] += ar[i] * br[j];
      }
    }
    barrier();
  }
  #undef FETCH

  [[unroll]] for (uint i = 0; i < TM; ++i) {
    const uint gm = m0 + ty + SIDE * i;
    if (gm >= p.m) break;
    [[unroll]] for (uint j = 0; j < TN; ++j) {
      const uint gn = n0 + tx + SIDE * j;
      if (gn >= p.n) continue;
#ifdef VKT_DOT_EPILOGUE
      dot_epilogue(out_base + gm * out_row + gn, acc[i * TN + j]);
#else
      if (MODE == 1) {
        store_partial(out_base + gm * out_row + gn, acc[i * TN + j]);
      } else {
        store_c(out_base + gm * out_row + gn, acc[i * TN + j]);
      }
#endif
    }
  }
}

void add_partials() {
  const uint i = global_index();
  const uint mn = p.m * p.n;
  if (i >= p.batch * mn) return;
  const uint bi = i / mn, r = i % mn;
  const uint first = bi * p.splits * mn + r;
  ACC sum = ACC(0);
  for (uint s = 0; s < p.splits; ++s) sum += load_partial(first + s * mn);
#ifdef VKT_DOT_EPILOGUE
  dot_epilogue(bi * p.scb + (r / p.n) * p.scm + r % p.n, sum);
#else
  store_c(bi * p.scb + (r / p.n) * p.scm + r % p.n, sum);
#endif
}

#include "linalg_dot_tiles.glsl"

void main() {
  if (MODE == 2) {
    add_partials();
    return;
  }
  run_tiles(gl_LocalInvocationID.x);
}
