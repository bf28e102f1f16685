#version 450
// dot for f16 on tensor cores through VK_NV_cooperative_matrix: f16 A and B, f32
// accumulation, the result rounded once to f16 (as the plain kernels). Same problem, push
// constants, strides, batch, grid-stride tile loop and split K (MODE 0 and 1; the MODE 2
// pass of linalg_dot.comp adds the partials) as linalg_dot.comp.
// - The tile is set by specialization constants (linalg_dot_choice.h): a workgroup computes
//   BM x BN of C with (BM / WM) x (BN / WN) subgroups of 32, each owning a WM x WN block of
//   FM x FN fragments of 16 x 16; an A fragment is reused FN times, a B fragment FM times.
// - K advances BK at a time through shared memory. With STAGES = 2 the next step's global
//   values are fetched into registers while the current step multiplies and stored into the
//   other buffer (one barrier per step); STAGES = 1 (less shared memory) takes two.
// - Shared memory is uvec4 (8 halves): each global read unit is 8 elements along the
//   operand's unit-stride axis, stored with one 16-byte store. Shared rows keep that axis
//   (A as [m][k] or [k][m], B as [k][n] or [n][k]) padded by one uvec4, so the 16-byte row
//   reads of a fragment load fall in distinct banks; fragment loads say which layout
//   (column-major where the operand is transposed).
// - Global reads are one uvec4 where the host found the unit-stride axis, the other strides
//   and that axis's extent multiples of 8 (A_VEC / B_VEC), else 8 scalar reads; outside the
//   matrices zeros enter shared memory, so any M, N, K works. A tile wholly inside C with
//   both reads wide (hoisted) reads its full K steps from bases made once per tile plus the
//   step's offset, with no bounds tests (the others take the checked reads): faster for
//   128 x 128 tiles on the H200, where two workgroups
//   share an SM and a step's instructions beside the multiplies count. Where the units fill
//   whole rounds (STRIDED) it keeps one base per operand and steps by a uniform stride: 250
//   registers against 255 with a base per unit (h1), f16 +2-4%: bench_results/h200/matmul.csv.
// - A fragment wholly inside C is converted to f16 (MODE 0) and stored straight to C when
//   the host found C's rows 16-byte aligned (C_DIRECT); MODE 1 stores f32 partials the same
//   way. Other fragments go through a per-subgroup 16 x 16 f32 patch (in the operand
//   buffers, after the last step), whose elements inside C the invocations store.
// KHR matrices and bf16: Debian 12's glslc cannot compile the KHR extension, and NV matrices
// have no bf16 type, so the host rewrites this module's SPIR-V (coopmat_khr_spirv.h) to KHR
// matrices, of f16 (f16's default where the device has them) or of bf16 A and B. The module
// only moves A and B as bits (uvec4 units, 16-bit loads, selects) until the multiply, so the
// rewrite needs no other change; bf16 stores round to bf16 below (DTYPE), and the host never
// takes the f16 direct store (C_DIRECT) then.
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : enable

const uint DT_F16 = 8, DT_BF16 = 9;
layout(constant_id = 1) const uint DTYPE = DT_F16;
layout(constant_id = 2) const uint TM = 8;  // BM / 16
layout(constant_id = 3) const uint TN = 8;  // BN / 16
layout(constant_id = 4) const uint BK = 32;
layout(constant_id = 5) const bool A_K_CONTIG = true;
layout(constant_id = 6) const bool B_K_CONTIG = false;
layout(constant_id = 7) const uint MODE = 0;
layout(constant_id = 8) const uint GROUP_M = 8;
layout(constant_id = 9) const bool A_VEC = false;
layout(constant_id = 10) const bool B_VEC = false;
layout(constant_id = 11) const uint WM = 64;
layout(constant_id = 12) const uint WN = 64;
layout(constant_id = 13) const uint STAGES = 2;
layout(constant_id = 14) const uint THREADS = 128;  // 32 * (BM / WM) * (BN / WN)
layout(constant_id = 15) const bool C_DIRECT = false;

layout(local_size_x_id = 14) in;

const uint F = 16;  // fragment side
const uint BM = TM * F, BN = TN * F;
const uint FM = WM / F, FN = WN / F;
const uint SG_N = BN / WN;  // subgroups along n
// Shared tiles in uvec4 units: rows along the non-unit axis, R_* uvec4 per padded row.
const uint A_ROWS = A_K_CONTIG ? BM : BK;
const uint A_RU = (A_K_CONTIG ? BK : BM) / 8;  // units per row
const uint A_PITCH = A_RU + 1;
const uint B_ROWS = B_K_CONTIG ? BN : BK;
const uint B_RU = (B_K_CONTIG ? BK : BN) / 8;
const uint B_PITCH = B_RU + 1;
const uint A_SIZE = A_ROWS * A_PITCH;
const uint B_SIZE = B_ROWS * B_PITCH;
const uint A_UNITS = A_ROWS * A_RU;
const uint B_UNITS = B_ROWS * B_RU;
const uint LOADS_A = (A_UNITS + THREADS - 1) / THREADS;
const uint LOADS_B = (B_UNITS + THREADS - 1) / THREADS;
// Hoisted reads where each operand's units fill whole rounds of THREADS and a row holds a
// divisor of THREADS units: unit r sits THREADS / RU rows past unit 0, so one base per operand
// and a uniform stride stay live instead of a base per unit (fewer registers).
// (A sum, not &&: glslang's short-circuit code for specialization constants fails spirv-opt.)
const uint STRIDED_MISSES = THREADS % A_RU + THREADS % B_RU + A_UNITS % THREADS +
                            B_UNITS % THREADS;
const bool STRIDED = STRIDED_MISSES == 0;
const uint PATCH_UNITS = F * F / 4;  // one f32 fragment in uvec4
const uint TILES_SIZE = STAGES * (A_SIZE + B_SIZE);
const uint PATCHES_UNITS = (THREADS / 32) * PATCH_UNITS;
const uint SMEM_SIZE = TILES_SIZE > PATCHES_UNITS ? TILES_SIZE : PATCHES_UNITS;

layout(binding = 0) readonly buffer AU16 { uint16_t v[]; } a_u16;
layout(binding = 0) readonly buffer AV { uvec4 v[]; } a_v;
layout(binding = 1) readonly buffer BU16 { uint16_t v[]; } b_u16;
layout(binding = 1) readonly buffer BV { uvec4 v[]; } b_v;
layout(binding = 2) writeonly buffer CU16 { uint16_t v[]; } c_u16;
layout(binding = 2) writeonly buffer CH { float16_t v[]; } c_h;
layout(binding = 2) writeonly buffer CF32 { float v[]; } c_f32;

#include "linalg_dot_push.glsl"

// A stages, then B stages; after the last step, the subgroups' f32 patches.
shared uvec4 smem[SMEM_SIZE];

// Round-to-nearest-even f32 -> binary16 bits (dtype_value.glsl's, which this module cannot
// include: it needs the plain kernels' buffer declarations).
uint f32_to_f16_bits(float f) {
  const uint x = floatBitsToUint(f);
  const uint sign = (x >> 16) & 0x8000u;
  const uint a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) return sign | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0u);
  if (a >= 0x477ff000u) return sign | 0x7c00u;
  if (a < 0x38800000u) {
    if (a < 0x33000000u) return sign;
    const uint mant = (a & 0x7fffffu) | 0x800000u;
    const uint shift = 113u - (a >> 23) + 13u;
    uint h = mant >> shift;
    const uint rem = mant & ((1u << shift) - 1u);
    const uint half_ = 1u << (shift - 1u);
    if (rem > half_ || (rem == half_ && (h & 1u) != 0u)) ++h;
    return sign | h;
  }
  uint h = (a >> 13) - (112u << 10);
  const uint rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) != 0u)) ++h;
  return sign | h;
}

// Round-to-nearest-even f32 -> bfloat16 bits, a quiet NaN for NaN (dtype_value.glsl's).
uint f32_to_bf16_bits(float f) {
  const uint x = floatBitsToUint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return ((x >> 16) | 0x40u) & 0xffffu;
  return ((x + 0x7fffu + ((x >> 16) & 1u)) >> 16) & 0xffffu;
}

// One read unit: 8 elements from `at` on, `step` apart, the first `valid` of them inside
// the matrix (8 or 0 where VEC: the host checked the unit never straddles an edge).
// The elements are moved as 16-bit patterns (never as floats), so bf16 passes unchanged.
uvec4 read_a(uint at, uint step, uint valid) {
  if (A_VEC) return valid > 0 ? a_v.v[at / 8] : uvec4(0);
  uint h[8];
  [[unroll]] for (uint e = 0; e < 8; ++e) h[e] = e < valid ? uint(a_u16.v[at + e * step]) : 0u;
  return uvec4(h[0] | (h[1] << 16), h[2] | (h[3] << 16), h[4] | (h[5] << 16), h[6] | (h[7] << 16));
}

uvec4 read_b(uint at, uint step, uint valid) {
  if (B_VEC) return valid > 0 ? b_v.v[at / 8] : uvec4(0);
  uint h[8];
  [[unroll]] for (uint e = 0; e < 8; ++e) h[e] = e < valid ? uint(b_u16.v[at + e * step]) : 0u;
  return uvec4(h[0] | (h[1] << 16), h[2] | (h[3] << 16), h[4] | (h[5] << 16), h[6] | (h[7] << 16));
}

// Elements of a unit inside [begin, end) along its axis: 0..8.
uint valid_count(uint begin, uint end) { return begin >= end ? 0u : min(8u, end - begin); }

void compute_tile(uint bi, uint k_begin, uint k_end, uint out_base, uint out_row, uint m0,
                  uint n0, uint tid) {
  const uint w = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint wm = (w / SG_N) * WM, wn = (w % SG_N) * WN;
  const uint a_base = bi * p.sab, b_base = bi * p.sbb;
  fcoopmatNV<32, gl_ScopeSubgroup, F, F> acc[FM * FN];
  [[unroll]] for (uint i = 0; i < FM * FN; ++i) {
    acc[i] = fcoopmatNV<32, gl_ScopeSubgroup, F, F>(0.0);
  }
  uvec4 va[LOADS_A], vb[LOADS_B];  // the next step's units

  // Unit u of a tile sits at shared row u / RU, column unit u % RU; the row is the non-unit
  // axis (m for a K-contiguous A, else k; n for a K-contiguous B, else k).
  #define FETCH(k0, VA, VB)                                                                \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                        \
      const uint u = tid + r * THREADS;                                                    \
      const uint row = u / A_RU, col = (u % A_RU) * 8;                                     \
      const uint gm = m0 + (A_K_CONTIG ? row : col), gk = (k0) + (A_K_CONTIG ? col : row); \
      const uint valid = u >= A_UNITS ? 0u                                                 \
                         : A_K_CONTIG ? (gm < p.m ? valid_count(gk, k_end) : 0u)           \
                                      : (gk < k_end ? valid_count(gm, p.m) : 0u);          \
      VA[r] = read_a(a_base + gm * p.sam + gk * p.sak, A_K_CONTIG ? p.sak : p.sam, valid); \
    }                                                                                      \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                        \
      const uint u = tid + r * THREADS;                                                    \
      const uint row = u / B_RU, col = (u % B_RU) * 8;                                     \
      const uint gn = n0 + (B_K_CONTIG ? row : col), gk = (k0) + (B_K_CONTIG ? col : row); \
      const uint valid = u >= B_UNITS ? 0u                                                 \
                         : B_K_CONTIG ? (gn < p.n ? valid_count(gk, k_end) : 0u)           \
                                      : (gk < k_end ? valid_count(gn, p.n) : 0u);          \
      VB[r] = read_b(b_base + gk * p.sbk + gn * p.sbn, B_K_CONTIG ? p.sbk : p.sbn, valid); \
    }

  // Hoisted: each unit's uvec4 index at k = 0 (a unit past the tile reads the last one's,
  // which STORE drops); a step adds k0 times the K stride, a multiple of 8 where reads are wide.
  const bool hoisted = A_VEC && B_VEC && m0 + BM <= p.m && n0 + BN <= p.n;
  const uint a_rows_per_round = THREADS / A_RU, b_rows_per_round = THREADS / B_RU;
  const uint a_round = a_rows_per_round * (A_K_CONTIG ? p.sam : p.sak) / 8;
  const uint b_round = b_rows_per_round * (B_K_CONTIG ? p.sbn : p.sbk) / 8;
  uint a_unit[LOADS_A], b_unit[LOADS_B];
  if (hoisted) {
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {
      const uint u = min(tid + r * THREADS, A_UNITS - 1);
      const uint row = u / A_RU, col = (u % A_RU) * 8;
      const uint gm = m0 + (A_K_CONTIG ? row : col), gk = A_K_CONTIG ? col : row;
      a_unit[r] = (a_base + gm * p.sam + gk * p.sak) / 8;
    }
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {
      const uint u = min(tid + r * THREADS, B_UNITS - 1);
      const uint row = u / B_RU, col = (u % B_RU) * 8;
      const uint gn = n0 + (B_K_CONTIG ? row : col), gk = B_K_CONTIG ? col : row;
      b_unit[r] = (b_base + gk * p.sbk + gn * p.sbn) / 8;
    }
  }
  #define FETCH_HOISTED(k0, VA, VB)                                                        \
    {                                                                                      \
      const uint ka = ((k0) * p.sak) / 8, kb = ((k0) * p.sbk) / 8;                         \
      if (STRIDED) {                                                                       \
        [[unroll]] for (uint r = 0; r < LOADS_A; ++r) VA[r] = a_v.v[a_unit[0] + r * a_round + ka]; \
        [[unroll]] for (uint r = 0; r < LOADS_B; ++r) VB[r] = b_v.v[b_unit[0] + r * b_round + kb]; \
      } else {                                                                             \
        [[unroll]] for (uint r = 0; r < LOADS_A; ++r) VA[r] = a_v.v[a_unit[r] + ka];       \
        [[unroll]] for (uint r = 0; r < LOADS_B; ++r) VB[r] = b_v.v[b_unit[r] + kb];       \
      }                                                                                    \
    }
  // The step at k0: unchecked where the tile is hoisted and the step is whole (uniform).
  #define FETCH_STEP(k0, VA, VB)                                                           \
    if (hoisted && (k0) + BK <= k_end) {                                                   \
      FETCH_HOISTED(k0, VA, VB)                                                            \
    } else {                                                                               \
      FETCH(k0, VA, VB)                                                                    \
    }

  #define STORE(buf)                                                                       \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                        \
      const uint u = tid + r * THREADS;                                                    \
      if (u < A_UNITS) smem[(buf) * A_SIZE + (u / A_RU) * A_PITCH + u % A_RU] = va[r];     \
    }                                                                                      \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                        \
      const uint u = tid + r * THREADS;                                                    \
      if (u < B_UNITS) {                                                                   \
        smem[STAGES * A_SIZE + (buf) * B_SIZE + (u / B_RU) * B_PITCH + u % B_RU] = vb[r];  \
      }                                                                                    \
    }

  barrier();  // the previous tile's patches are read
  FETCH_STEP(k_begin, va, vb)
  STORE(0)
  barrier();
  uint buf = 0;
  for (uint k0 = k_begin; k0 < k_end; k0 += BK) {
    const bool more = k0 + BK < k_end;  // uniform: the barriers below stay uniform
    if (more) {
      FETCH_STEP(k0 + BK, va, vb)
    }
    const uint a_at = buf * A_SIZE, b_at = STAGES * A_SIZE + buf * B_SIZE;
    [[unroll]] for (uint kf = 0; kf < BK; kf += F) {
      fcoopmatNV<16, gl_ScopeSubgroup, F, F> fa[FM];
      [[unroll]] for (uint i = 0; i < FM; ++i) {
        const uint row = wm + i * F;
        if (A_K_CONTIG) {
          coopMatLoadNV(fa[i], smem, a_at + row * A_PITCH + kf / 8, A_PITCH, false);
        } else {
          coopMatLoadNV(fa[i], smem, a_at + kf * A_PITCH + row / 8, A_PITCH, true);
        }
      }
      [[unroll]] for (uint j = 0; j < FN; ++j) {
        const uint col = wn + j * F;
        fcoopmatNV<16, gl_ScopeSubgroup, F, F> fb;
        if (B_K_CONTIG) {
          coopMatLoadNV(fb, smem, b_at + col * B_PITCH + kf / 8, B_PITCH, true);
        } else {
          coopMatLoadNV(fb, smem, b_at + kf * B_PITCH + col / 8, B_PITCH, false);
        }
        [[unroll]] for (uint i = 0; i < FM; ++i) {
          acc[i * FN + j] = coopMatMulAddNV(fa[i], fb, acc[i * FN + j]);
        }
      }
    }
    if (STAGES == 2) {
      if (more) {
        STORE(buf ^ 1u)
      }
      barrier();
      buf ^= 1u;
    } else {
      barrier();  // every subgroup is done with the step before it is overwritten
      if (more) {
        STORE(0)
        barrier();
      }
    }
  }
  #undef FETCH
  #undef FETCH_HOISTED
  #undef FETCH_STEP
  #undef STORE

  // After the loop's last barrier the tiles are free: each subgroup's patch reuses them.
  const uint patch_at = w * PATCH_UNITS;
  [[unroll]] for (uint i = 0; i < FM; ++i) {
    [[unroll]] for (uint j = 0; j < FN; ++j) {
      const uint fm = m0 + wm + i * F, fn = n0 + wn + j * F;
      const uint at = out_base + fm * out_row + fn;
      if (C_DIRECT && fm + F <= p.m && fn + F <= p.n) {
        if (MODE == 1) {
          coopMatStoreNV(acc[i * FN + j], c_f32.v, at, out_row, false);
        } else {
          fcoopmatNV<16, gl_ScopeSubgroup, F, F> h =
              fcoopmatNV<16, gl_ScopeSubgroup, F, F>(acc[i * FN + j]);
          coopMatStoreNV(h, c_h.v, at, out_row, false);
        }
        continue;
      }
      if (fm >= p.m || fn >= p.n) continue;  // uniform in the subgroup
      coopMatStoreNV(acc[i * FN + j], smem, patch_at, F / 4, false);
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      [[unroll]] for (uint r = 0; r < F * F / 32; ++r) {
        const uint e = lane + 32 * r;
        const uint gm = fm + e / F, gn = fn + e % F;
        if (gm < p.m && gn < p.n) {
          const float x = uintBitsToFloat(smem[patch_at + e / 4][e % 4]);
          const uint to = out_base + gm * out_row + gn;
          if (MODE == 1) {
            c_f32.v[to] = x;
          } else {
            c_u16.v[to] = uint16_t(DTYPE == DT_BF16 ? f32_to_bf16_bits(x) : f32_to_f16_bits(x));
          }
        }
      }
      subgroupMemoryBarrierShared();
      subgroupBarrier();
    }
  }
}

#include "linalg_dot_tiles.glsl"

void main() {
  run_tiles(gl_LocalInvocationID.x);
}
