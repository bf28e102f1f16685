#version 450
// conv for f16 on tensor cores through VK_NV_cooperative_matrix: the implicit GEMM of
// conv.comp (same push constants, specialization constants 5..8, grid and gather of the
// im2col operand B), with linalg_dot_coopmat.comp's machinery: f16 fragments of 16 x 16 x 16,
// f32 accumulation, one rounding to f16 on store.
// - A workgroup of 8 subgroups of 32 computes a 64 x 128 tile (out channels x columns);
//   subgroup w owns the 32 x 32 block at rows (w / 4) * 32, columns (w % 4) * 32: 2 x 2
//   fragments.
// - K advances 32 at a time through shared memory, double-buffered (one barrier per step):
//   A (the kernel, k contiguous) as [m][k], B (gathered, zeros on padding) as [k][n], rows
//   padded by 8 halves.
// - Each invocation loads one fixed column of B (128 columns, 256 invocations), so its
//   output coordinates are decoded once per tile.
// - Finished fragments go through a per-subgroup 16 x 16 f32 patch of shared memory, from
//   which the subgroup stores the elements into the output's [n, o, pos] layout.
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : enable

layout(local_size_x = 256) in;

layout(constant_id = 5) const bool INPUT_DILATED = false;
layout(constant_id = 6) const uint K_D0 = 0;  // 0: kernel sizes from the push constants
layout(constant_id = 7) const uint K_D1 = 0;
layout(constant_id = 8) const uint K_D2 = 0;
const bool FIXED_KERNEL = K_D0 != 0;

const uint THREADS = 256;
const uint BM = 64, BN = 128, BK = 32;
const uint F = 16;          // fragment side
const uint FM = 2, FN = 2;  // fragments per subgroup
const uint PAD = 8;
const uint A_PITCH = BK + PAD;
const uint B_PITCH = BN + PAD;
const uint A_ELEMS = BM * A_PITCH;
const uint B_ELEMS = BK * B_PITCH;
const uint LOADS_A = BM * BK / THREADS;  // 8
const uint LOADS_B = BN * BK / THREADS;  // 16
const uint B_ROWS = THREADS / BN;        // 2

layout(binding = 0) readonly buffer AH { float16_t v[]; } a_h;
layout(binding = 1) readonly buffer BH { float16_t v[]; } b_h;
layout(binding = 2) writeonly buffer CU16 { uint16_t v[]; } c_u16;

layout(push_constant) uniform Push {
  uint cols, m, k, groups;
  uint out_channels, positions, taps;
  uint image_stride, group_stride, in_plane;
  uint in_d0, in_d1, in_d2;
  uint out_d1, out_d2;
  uint k_d1, k_d2;
  uint stride0, stride1, stride2;
  int pad0, pad1, pad2;
  uint in_dil0, in_dil1, in_dil2;
  uint k_dil0, k_dil1, k_dil2;
} p;

shared float16_t As[2 * A_ELEMS];
shared float16_t Bs[2 * B_ELEMS];
shared float Cs[(THREADS / 32) * F * F];

// Round-to-nearest-even f32 -> binary16 bits (as linalg_dot_coopmat.comp's).
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

int source(int q, uint dil, uint dim) {
  if (q < 0) return -1;
  uint i = uint(q);
  if (INPUT_DILATED) {
    if (i % dil != 0u) return -1;
    i /= dil;
  }
  return i < dim ? int(i) : -1;
}

void compute_tile(uint g, uint m0, uint n0) {
  const uint tid = gl_LocalInvocationID.x;
  const uint w = gl_SubgroupID, lane = gl_SubgroupInvocationID;
  const uint wm = (w / 4) * (FM * F), wn = (w % 4) * (FN * F);
  const uint a_base = g * p.m * p.k;
  const uint col = n0 + tid % BN;
  const bool col_in = col < p.cols;
  const uint nb = col / p.positions, pos = col % p.positions;
  const uint o2 = pos % p.out_d2, o1 = (pos / p.out_d2) % p.out_d1,
             o0 = pos / (p.out_d2 * p.out_d1);
  const int q0 = int(o0 * p.stride0) - p.pad0, q1 = int(o1 * p.stride1) - p.pad1,
            q2 = int(o2 * p.stride2) - p.pad2;
  const uint img = nb * p.image_stride + g * p.group_stride;
  const uint taps = FIXED_KERNEL ? K_D0 * K_D1 * K_D2 : p.taps;
  const uint kd1 = FIXED_KERNEL ? K_D1 : p.k_d1, kd2 = FIXED_KERNEL ? K_D2 : p.k_d2;

  fcoopmatNV<32, gl_ScopeSubgroup, F, F> acc[FM * FN];
  [[unroll]] for (uint i = 0; i < FM * FN; ++i) {
    acc[i] = fcoopmatNV<32, gl_ScopeSubgroup, F, F>(0.0);
  }
  float16_t sa[LOADS_A];
  float16_t sb[LOADS_B];

  #define FETCH(k0)                                                                          \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                          \
      const uint u = tid + r * THREADS;                                                      \
      const uint gm = m0 + u / BK, gk = (k0) + u % BK;                                       \
      sa[r] = gm < p.m && gk < p.k ? a_h.v[a_base + gm * p.k + gk] : float16_t(0);           \
    }                                                                                        \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                          \
      const uint gk = (k0) + tid / BN + r * B_ROWS;                                          \
      float16_t v = float16_t(0);                                                            \
      if (col_in && gk < p.k) {                                                              \
        const uint c = gk / taps, t = gk % taps;                                             \
        const uint t2 = t % kd2, t1 = (t / kd2) % kd1, t0 = t / (kd2 * kd1);                 \
        const int i0 = source(q0 + int(t0 * p.k_dil0), p.in_dil0, p.in_d0);                  \
        const int i1 = source(q1 + int(t1 * p.k_dil1), p.in_dil1, p.in_d1);                  \
        const int i2 = source(q2 + int(t2 * p.k_dil2), p.in_dil2, p.in_d2);                  \
        if (i0 >= 0 && i1 >= 0 && i2 >= 0) {                                                 \
          v = b_h.v[img + c * p.in_plane + (uint(i0) * p.in_d1 + uint(i1)) * p.in_d2 +       \
                    uint(i2)];                                                               \
        }                                                                                    \
      }                                                                                      \
      sb[r] = v;                                                                             \
    }

  #define STORE(buf)                                                                         \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                          \
      const uint u = tid + r * THREADS;                                                      \
      As[(buf) * A_ELEMS + (u / BK) * A_PITCH + u % BK] = sa[r];                             \
    }                                                                                        \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                          \
      Bs[(buf) * B_ELEMS + (tid / BN + r * B_ROWS) * B_PITCH + tid % BN] = sb[r];            \
    }

  uint buf = 0;
  FETCH(0)
  STORE(0)
  barrier();
  for (uint k0 = 0; k0 < p.k; k0 += BK) {
    const bool more = k0 + BK < p.k;  // uniform: the barrier below stays uniform
    if (more) {
      FETCH(k0 + BK)
    }
    [[unroll]] for (uint kf = 0; kf < BK; kf += F) {
      fcoopmatNV<16, gl_ScopeSubgroup, F, F> fa[FM];
      fcoopmatNV<16, gl_ScopeSubgroup, F, F> fb[FN];
      [[unroll]] for (uint i = 0; i < FM; ++i) {
        coopMatLoadNV(fa[i], As, buf * A_ELEMS + (wm + i * F) * A_PITCH + kf, A_PITCH, false);
      }
      [[unroll]] for (uint j = 0; j < FN; ++j) {
        coopMatLoadNV(fb[j], Bs, buf * B_ELEMS + kf * B_PITCH + wn + j * F, B_PITCH, false);
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

  const uint cpatch = w * F * F;
  [[unroll]] for (uint i = 0; i < FM; ++i) {
    [[unroll]] for (uint j = 0; j < FN; ++j) {
      coopMatStoreNV(acc[i * FN + j], Cs, cpatch, F, false);
      subgroupMemoryBarrierShared();
      subgroupBarrier();
      [[unroll]] for (uint r = 0; r < F * F / 32; ++r) {
        const uint e = lane + 32 * r;
        const uint gm = m0 + wm + i * F + e / F, gn = n0 + wn + j * F + e % F;
        if (gm < p.m && gn < p.cols) {
          const uint at = (gn / p.positions) * p.out_channels * p.positions +
                          (g * p.m + gm) * p.positions + gn % p.positions;
          c_u16.v[at] = uint16_t(f32_to_f16_bits(Cs[cpatch + e]));
        }
      }
      subgroupMemoryBarrierShared();
      subgroupBarrier();
    }
  }
}

void main() {
  const uint tiles_m = (p.m + BM - 1) / BM;
  const uint tiles_n = (p.cols + BN - 1) / BN;
  for (uint g = gl_WorkGroupID.z; g < p.groups; g += gl_NumWorkGroups.z) {
    for (uint tm = gl_WorkGroupID.y; tm < tiles_m; tm += gl_NumWorkGroups.y) {
      for (uint tn = gl_WorkGroupID.x; tn < tiles_n; tn += gl_NumWorkGroups.x) {
        compute_tile(g, tm * BM, tn * BN);
      }
    }
  }
}
