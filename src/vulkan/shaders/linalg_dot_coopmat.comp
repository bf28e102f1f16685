#version 450
// dot for f16 on tensor cores through VK_NV_cooperative_matrix: f16 A and B, f32
// accumulation, the result rounded once to f16 (as the plain kernels). Same problem, push
// constants, strides, batch, grid-stride tile loop and split K (MODE 0 and 1; the MODE 2
// pass of linalg_dot.comp adds the partials) as linalg_dot.comp.
// - A workgroup of 8 subgroups of 32 computes a 128 x 128 tile of C; subgroup w owns the
//   64 x 32 block at rows (w / 4) * 64, columns (w % 4) * 32: 4 x 2 fragments of 16 x 16.
// - K advances 32 at a time through shared memory, double-buffered: the next step's global
//   values are fetched into registers while the current step multiplies, then stored into
//   the other buffer (one barrier per step). Shared tiles keep each operand's unit-stride
//   axis (A as [m][k] or [k][m], B as [k][n] or [n][k]) and the fragment loads say which
//   (column-major where the operand is transposed), rows padded by 8 halves (16 bytes).
// - Global reads are 8 halves (16 bytes) wide where the host found the unit-stride axis,
//   the other strides and that axis's extent multiples of 8 (A_VEC / B_VEC), else scalar;
//   outside the matrices zeros enter shared memory, so any M, N, K works.
// - Each finished fragment goes through a per-subgroup 16 x 16 f32 cpatch of shared memory,
//   from which the subgroup's invocations store the elements inside C, rounded to f16.
// bf16 has no path here: NV cooperative matrices offer no bf16 type (the KHR extension can,
// and Debian 12's glslc cannot compile it), so bf16 takes the register-blocked kernel.
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : enable

layout(local_size_x = 256) in;

const uint DT_F16 = 8;
layout(constant_id = 1) const uint DTYPE = DT_F16;
layout(constant_id = 5) const bool A_K_CONTIG = true;
layout(constant_id = 6) const bool B_K_CONTIG = false;
layout(constant_id = 7) const uint MODE = 0;
layout(constant_id = 8) const uint GROUP_M = 8;
layout(constant_id = 9) const bool A_VEC = false;
layout(constant_id = 10) const bool B_VEC = false;

const uint THREADS = 256;
const uint BM = 128, BN = 128, BK = 32;
const uint F = 16;         // fragment side
const uint FM = 4, FN = 2;  // fragments per subgroup
const uint PAD = 8;
// Shared layouts: [rows][cols] with cols padded; which axis is the row follows the operand.
const uint A_PITCH = A_K_CONTIG ? BK + PAD : BM + PAD;
const uint B_PITCH = B_K_CONTIG ? BK + PAD : BN + PAD;
const uint A_ELEMS = A_K_CONTIG ? BM * (BK + PAD) : BK * (BM + PAD);
const uint B_ELEMS = B_K_CONTIG ? BN * (BK + PAD) : BK * (BN + PAD);
const uint WA = A_VEC ? 8 : 1;
const uint WB = B_VEC ? 8 : 1;
const uint LOADS_A = BM * BK / WA / THREADS;  // 2 or 16
const uint LOADS_B = BN * BK / WB / THREADS;

layout(binding = 0) readonly buffer AH { float16_t v[]; } a_h;
layout(binding = 0) readonly buffer AV { uvec4 v[]; } a_v;
layout(binding = 1) readonly buffer BH { float16_t v[]; } b_h;
layout(binding = 1) readonly buffer BV { uvec4 v[]; } b_v;
layout(binding = 2) writeonly buffer CU16 { uint16_t v[]; } c_u16;
layout(binding = 2) writeonly buffer CF32 { float v[]; } c_f32;

layout(push_constant) uniform Push {
  uint m, n, k, batch;
  uint sab, sam, sak;
  uint sbb, sbk, sbn;
  uint splits, k_chunk;
  uint scb, scm;
} p;

shared float16_t As[2 * A_ELEMS];
shared float16_t Bs[2 * B_ELEMS];
shared float Cs[(THREADS / 32) * F * F];

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

// (row, col) in the shared tile of the first element of global read u; consecutive u run
// along the unit-stride axis (the shared row), W elements at a time.
uvec2 slot(uint u, uint cols, uint w) { return uvec2(u / (cols / w), (u % (cols / w)) * w); }

void compute_tile(uint bi, uint k_begin, uint k_end, uint out_base, uint out_row, uint m0,
                  uint n0) {
  const uint tid = gl_LocalInvocationID.x;
  const uint w = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint wm = (w / 4) * (FM * F), wn = (w % 4) * (FN * F);
  const uint a_base = bi * p.sab, b_base = bi * p.sbb;
  fcoopmatNV<32, gl_ScopeSubgroup, F, F> acc[FM * FN];
  [[unroll]] for (uint i = 0; i < FM * FN; ++i) {
    acc[i] = fcoopmatNV<32, gl_ScopeSubgroup, F, F>(0.0);
  }
  uvec4 va[LOADS_A];
  uvec4 vb[LOADS_B];
  float16_t sa[LOADS_A];
  float16_t sb[LOADS_B];

  // Shared-tile axes of A: rows are m (A_K_CONTIG) or k; columns the other. Likewise B:
  // rows n (B_K_CONTIG) or k.
  #define FETCH(k0)                                                                       \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                       \
      const uvec2 s = slot(tid + r * THREADS, A_K_CONTIG ? BK : BM, WA);                  \
      const uint gm = m0 + (A_K_CONTIG ? s.x : s.y), gk = (k0) + (A_K_CONTIG ? s.y : s.x); \
      const bool in_ = gm < p.m && gk < k_end;                                            \
      const uint at = a_base + gm * p.sam + gk * p.sak;                                   \
      if (A_VEC) {                                                                        \
        va[r] = in_ ? a_v.v[at / 8] : uvec4(0);                                           \
      } else {                                                                            \
        sa[r] = in_ ? a_h.v[at] : float16_t(0);                                           \
      }                                                                                   \
    }                                                                                     \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                       \
      const uvec2 s = slot(tid + r * THREADS, B_K_CONTIG ? BK : BN, WB);                  \
      const uint gn = n0 + (B_K_CONTIG ? s.x : s.y), gk = (k0) + (B_K_CONTIG ? s.y : s.x); \
      const bool in_ = gn < p.n && gk < k_end;                                            \
      const uint at = b_base + gk * p.sbk + gn * p.sbn;                                   \
      if (B_VEC) {                                                                        \
        vb[r] = in_ ? b_v.v[at / 8] : uvec4(0);                                           \
      } else {                                                                            \
        sb[r] = in_ ? b_h.v[at] : float16_t(0);                                           \
      }                                                                                   \
    }

  #define STORE(buf)                                                                      \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                       \
      const uvec2 s = slot(tid + r * THREADS, A_K_CONTIG ? BK : BM, WA);                  \
      const uint at = (buf) * A_ELEMS + s.x * A_PITCH + s.y;                              \
      if (A_VEC) {                                                                        \
        [[unroll]] for (uint c = 0; c < 4; ++c) {                                         \
          const f16vec2 h = unpackFloat2x16(va[r][c]);                            \
          As[at + 2 * c] = h.x;                                                           \
          As[at + 2 * c + 1] = h.y;                                                       \
        }                                                                                 \
      } else {                                                                            \
        As[at] = sa[r];                                                                   \
      }                                                                                   \
    }                                                                                     \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                       \
      const uvec2 s = slot(tid + r * THREADS, B_K_CONTIG ? BK : BN, WB);                  \
      const uint at = (buf) * B_ELEMS + s.x * B_PITCH + s.y;                              \
      if (B_VEC) {                                                                        \
        [[unroll]] for (uint c = 0; c < 4; ++c) {                                         \
          const f16vec2 h = unpackFloat2x16(vb[r][c]);                            \
          Bs[at + 2 * c] = h.x;                                                           \
          Bs[at + 2 * c + 1] = h.y;                                                       \
        }                                                                                 \
      } else {                                                                            \
        Bs[at] = sb[r];                                                                   \
      }                                                                                   \
    }

  uint buf = 0;
  FETCH(k_begin)
  STORE(0)
  barrier();
  for (uint k0 = k_begin; k0 < k_end; k0 += BK) {
    const bool more = k0 + BK < k_end;  // uniform: the barrier below stays uniform
    if (more) {
      FETCH(k0 + BK)
    }
    [[unroll]] for (uint kf = 0; kf < BK; kf += F) {
      fcoopmatNV<16, gl_ScopeSubgroup, F, F> fa[FM];
      fcoopmatNV<16, gl_ScopeSubgroup, F, F> fb[FN];
      [[unroll]] for (uint i = 0; i < FM; ++i) {
        const uint row = wm + i * F;
        if (A_K_CONTIG) {
          coopMatLoadNV(fa[i], As, buf * A_ELEMS + row * A_PITCH + kf, A_PITCH, false);
        } else {
          coopMatLoadNV(fa[i], As, buf * A_ELEMS + kf * A_PITCH + row, A_PITCH, true);
        }
      }
      [[unroll]] for (uint j = 0; j < FN; ++j) {
        const uint col = wn + j * F;
        if (B_K_CONTIG) {
          coopMatLoadNV(fb[j], Bs, buf * B_ELEMS + col * B_PITCH + kf, B_PITCH, true);
        } else {
          coopMatLoadNV(fb[j], Bs, buf * B_ELEMS + kf * B_PITCH + col, B_PITCH, false);
        }
      }
      [[unroll]] for (uint i = 0; i < FM; ++i) {
        [[unroll]] for (uint j = 0; j < FN; ++j) {
          acc[i * FN + j] = coopMatMulAddNV(fa[i], fb[j], acc[i * FN + j]);
        }
      }
    }
    if (more) {
      STORE(buf ^ 1u)
    }
    barrier();
    buf ^= 1u;
  }
  #undef FETCH
  #undef STORE

  // Each fragment through the subgroup's cpatch: lane e stores elements lane + 32 * r.
  const uint cpatch = w * F * F;
  [[unroll]] for (uint i = 0; i < FM; ++i) {
    [[unroll]] for (uint j = 0; j < FN; ++j) {
      coopMatStoreNV(acc[i * FN + j], Cs, cpatch, F, false);
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      [[unroll]] for (uint r = 0; r < F * F / 32; ++r) {
        const uint e = lane + 32 * r;
        const uint gm = m0 + wm + i * F + e / F, gn = n0 + wn + j * F + e % F;
        if (gm < p.m && gn < p.n) {
          const uint at = out_base + gm * out_row + gn;
          if (MODE == 1) {
            c_f32.v[at] = Cs[cpatch + e];
          } else {
            c_u16.v[at] = uint16_t(f32_to_f16_bits(Cs[cpatch + e]));
          }
        }
      }
      subgroupMemoryBarrierShared();
      subgroupBarrier();
    }
  }
}

void main() {
  const uint tiles_m = (p.m + BM - 1) / BM;
  const uint tiles_n = (p.n + BN - 1) / BN;
  const uint mn = p.m * p.n;
  for (uint z = gl_WorkGroupID.z; z < p.batch * p.splits; z += gl_NumWorkGroups.z) {
    const uint k_begin = (z % p.splits) * p.k_chunk;
    const uint k_end = min(p.k, k_begin + p.k_chunk);
    const uint launched = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    const uint band = GROUP_M * tiles_n;
    for (uint t = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
         t < tiles_m * tiles_n; t += launched) {
      const uint first_m = (t / band) * GROUP_M;
      const uint rows = min(GROUP_M, tiles_m - first_m);
      const uint tm = first_m + (t % band) % rows, tn = (t % band) / rows;
      const uint bi = z / p.splits;
      if (MODE == 1) {  // the scratch: contiguous [batch, splits, M, N]
        compute_tile(bi, k_begin, k_end, z * mn, p.n, tm * BM, tn * BN);
      } else {
        compute_tile(bi, k_begin, k_end, bi * p.scb, p.scm, tm * BM, tn * BN);
      }
    }
  }
}
