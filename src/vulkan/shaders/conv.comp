#version 450
// conv as an implicit GEMM per group: C[Og, cols] = A[Og, K] B[K, cols], where A is the group's
// kernel rows (contiguous, K = Cg * taps), B the im2col matrix that is never stored (each
// element gathered from the input as it is loaded: zero on padding and between dilated input
// elements) and cols = out batch * out positions, written into the output's [n, o, pos]
// layout. Tiling as linalg_dot_reg.comp (register blocking, two shared K steps, one barrier
// per step, vec4 shared rows). Up to 3 spatial axes (the host pads missing ones with size 1).
// Each invocation always loads the same tile column of B (BN divides the workgroup), so its
// column's output coordinates are decoded once per tile. f16/bf16 accumulate in f32, f64 in f64.
// K_FASTEST: consecutive invocations load consecutive K rows of one column instead, for a
// kernel longer than the output on its last axis (a kernel cotangent as a conv: 3x3 outputs
// of a 56x56 kernel), where consecutive taps, not consecutive columns, are adjacent in memory.
// Split K (PARTIALS): z runs over groups x splits; split s sums K rows [s * k_chunk, +k_chunk)
// into the s-th copy of the output (split_stride elements apart) in scratch of the
// accumulator's type (f32; f64 for f64), unrounded; conv_split_sum.comp then adds the copies.
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : enable

layout(constant_id = 1) const uint DTYPE = DT_F32;
layout(constant_id = 2) const uint TM = 4;  // 4 or 8
layout(constant_id = 3) const uint TN = 8;  // 4 or 8
layout(constant_id = 4) const uint BK = 16;
layout(constant_id = 5) const bool INPUT_DILATED = false;  // any input dilation > 1
// The kernel's spatial sizes as constants, so the per-element decode of K divides by
// constants (a multiply and a shift) instead of a 20-instruction integer division; 0: read
// them from the push constants (one pipeline for every kernel shape).
layout(constant_id = 6) const uint K_D0 = 0;
layout(constant_id = 7) const uint K_D1 = 0;
layout(constant_id = 8) const uint K_D2 = 0;
const bool FIXED_KERNEL = K_D0 != 0;
layout(constant_id = 9) const bool K_FASTEST = false;
layout(constant_id = 10) const bool PARTIALS = false;  // C is the split's f32/f64 scratch

const uint SIDE = 16;
const uint THREADS = SIDE * SIDE;
const uint BM = SIDE * TM;
const uint BN = SIDE * TN;
const uint PA = BM / 4 + 1;  // shared row pitches in vec4 (one more against bank conflicts)
const uint PB = BN / 4 + 1;
const uint LOADS_A = BM * BK / THREADS;
const uint LOADS_B = BN * BK / THREADS;
const uint B_ROWS = THREADS / BN;  // K rows of B one pass of the workgroup loads

#include "linalg_float_io.glsl"

#ifdef VKT_F64
#define VEC4 dvec4
#else
#define VEC4 vec4
#endif

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
  uint k_chunk, split_stride;
} p;

shared VEC4 As[2 * BK * PA];
shared VEC4 Bs[2 * BK * PB];

// The input index on one axis for origin q (output index * stride - pad + tap * dilation),
// or -1 on padding or between dilated elements.
int source(int q, uint dil, uint dim) {
  if (q < 0) return -1;
  uint i = uint(q);
  if (INPUT_DILATED) {
    if (i % dil != 0u) return -1;
    i /= dil;
  }
  return i < dim ? int(i) : -1;
}

// Column col's image base and origin on each axis (output index * stride - pad).
struct Column {
  bool inside;  // col < cols
  uint img;
  int q0, q1, q2;
};

Column column(uint col, uint g) {
  Column c;
  c.inside = col < p.cols;
  const uint nb = col / p.positions, pos = col % p.positions;
  const uint o2 = pos % p.out_d2, o1 = (pos / p.out_d2) % p.out_d1,
             o0 = pos / (p.out_d2 * p.out_d1);
  c.q0 = int(o0 * p.stride0) - p.pad0;
  c.q1 = int(o1 * p.stride1) - p.pad1;
  c.q2 = int(o2 * p.stride2) - p.pad2;
  c.img = nb * p.image_stride + g * p.group_stride;
  return c;
}

void compute_tile(uint g, uint split, uint m0, uint n0, uint tid) {
  const uint tx = tid % SIDE, ty = tid / SIDE;
  const uint a_base = g * p.m * p.k;
  // This invocation's B columns: one (tid % BN), or with K_FASTEST LOADS_B of them.
  Column cols[LOADS_B];
  [[unroll]] for (uint r = 0; r < (K_FASTEST ? LOADS_B : 1u); ++r) {
    cols[r] = column(n0 + (K_FASTEST ? tid / BK + r * (THREADS / BK) : tid % BN), g);
  }
  const uint k_begin = split * p.k_chunk, k_end = min(p.k, k_begin + p.k_chunk);
  const uint taps = FIXED_KERNEL ? K_D0 * K_D1 * K_D2 : p.taps;
  const uint kd1 = FIXED_KERNEL ? K_D1 : p.k_d1, kd2 = FIXED_KERNEL ? K_D2 : p.k_d2;
  // K_FASTEST: every load of this invocation reads K row k0 + tid % BK, decoded here once
  // (channel kc, taps kt0..kt2) and advanced by BK after each fetch with carries, not the
  // five divisions by the kernel's runtime sizes each step would cost.
  uint kc = 0, kt0 = 0, kt1 = 0, kt2 = 0, kd0 = 1;
  if (K_FASTEST) {
    const uint gk = k_begin + tid % BK, t = gk % taps;
    kc = gk / taps;
    kt2 = t % kd2;
    kt1 = (t / kd2) % kd1;
    kt0 = t / (kd2 * kd1);
    kd0 = taps / max(kd1 * kd2, 1u);
  }

  VEC4 acc[TM][TN / 4];
  [[unroll]] for (uint i = 0; i < TM; ++i) {
    [[unroll]] for (uint j = 0; j < TN / 4; ++j) acc[i][j] = VEC4(0);
  }
  ACC ra[LOADS_A];
  ACC rb[LOADS_B];

  #define FETCH(k0)                                                                          \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                          \
      const uint u = tid + r * THREADS;                                                      \
      const uint gm = m0 + u / BK, gk = (k0) + u % BK;                                       \
      ra[r] = gm < p.m && gk < k_end ? load_a(a_base + gm * p.k + gk) : ACC(0);              \
    }                                                                                        \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                          \
      const uint gk = (k0) + (K_FASTEST ? tid % BK : tid / BN + r * B_ROWS);                 \
      const Column cl = cols[K_FASTEST ? r : 0];                                             \
      ACC v = ACC(0);                                                                        \
      if (cl.inside && gk < k_end) {                                                         \
        const uint t = gk % taps;                                                            \
        const uint c = K_FASTEST ? kc : gk / taps;                                           \
        const uint t2 = K_FASTEST ? kt2 : t % kd2;                                           \
        const uint t1 = K_FASTEST ? kt1 : (t / kd2) % kd1;                                   \
        const uint t0 = K_FASTEST ? kt0 : t / (kd2 * kd1);                                   \
        const int i0 = source(cl.q0 + int(t0 * p.k_dil0), p.in_dil0, p.in_d0);               \
        const int i1 = source(cl.q1 + int(t1 * p.k_dil1), p.in_dil1, p.in_d1);               \
        const int i2 = source(cl.q2 + int(t2 * p.k_dil2), p.in_dil2, p.in_d2);               \
        if (i0 >= 0 && i1 >= 0 && i2 >= 0) {                                                 \
          v = load_b(cl.img + c * p.in_plane + (uint(i0) * p.in_d1 + uint(i1)) * p.in_d2 +   \
                     uint(i2));                                                              \
        }                                                                                    \
      }                                                                                      \
      rb[r] = v;                                                                             \
    }                                                                                        \
    if (K_FASTEST && kd2 > 0u) { /* an empty kernel has K = 0: nothing to advance */        \
      kt2 += BK;                                                                             \
      while (kt2 >= kd2) {                                                                   \
        kt2 -= kd2;                                                                          \
        if (++kt1 == kd1) {                                                                  \
          kt1 = 0;                                                                           \
          if (++kt0 == kd0) {                                                                \
            kt0 = 0;                                                                         \
            ++kc;                                                                            \
          }                                                                                  \
        }                                                                                    \
      }                                                                                      \
    }

  #define STORE(buf)                                                                         \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                          \
      const uint u = tid + r * THREADS;                                                      \
      const uint row = u / BK, kk = u % BK;                                                  \
      As[((buf) * BK + kk) * PA + row / 4][row % 4] = ra[r];                                 \
    }                                                                                        \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                          \
      const uint cl = K_FASTEST ? tid / BK + r * (THREADS / BK) : tid % BN;                  \
      const uint kk = K_FASTEST ? tid % BK : tid / BN + r * B_ROWS;                          \
      Bs[((buf) * BK + kk) * PB + cl / 4][cl % 4] = rb[r];                                   \
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
    [[unroll]] for (uint kk = 0; kk < BK; ++kk) {
      VEC4 a[TM / 4];
      VEC4 b[TN / 4];
      [[unroll]] for (uint q = 0; q < TM / 4; ++q) a[q] = As[(buf * BK + kk) * PA + q * SIDE + ty];
      [[unroll]] for (uint q = 0; q < TN / 4; ++q) b[q] = Bs[(buf * BK + kk) * PB + q * SIDE + tx];
      [[unroll]] for (uint i = 0; i < TM; ++i) {
        [[unroll]] for (uint j = 0; j < TN / 4; ++j) acc[i][j] += a[i / 4][i % 4] * b[j];
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

  [[unroll]] for (uint j = 0; j < TN / 4; ++j) {
    [[unroll]] for (uint c = 0; c < 4; ++c) {
      const uint gn = n0 + j * (SIDE * 4) + tx * 4 + c;
      if (gn >= p.cols) break;
      const uint out_col = (gn / p.positions) * p.out_channels * p.positions + gn % p.positions;
      [[unroll]] for (uint i = 0; i < TM; ++i) {
        const uint gm = m0 + (i / 4) * (SIDE * 4) + ty * 4 + i % 4;
        if (gm < p.m) {
          const uint at = split * p.split_stride + out_col + (g * p.m + gm) * p.positions;
          if (PARTIALS) {
            store_partial(at, acc[i][j][c]);
          } else {
            store_c(at, acc[i][j][c]);
          }
        }
      }
    }
  }
}

void main() {
  const uint tid = gl_LocalInvocationID.x;
  const uint tiles_m = (p.m + BM - 1) / BM;
  const uint tiles_n = (p.cols + BN - 1) / BN;
  const uint splits = max(1u, (p.k + p.k_chunk - 1) / p.k_chunk);  // K = 0: one, of zeros
  for (uint z = gl_WorkGroupID.z; z < p.groups * splits; z += gl_NumWorkGroups.z) {
    for (uint tm = gl_WorkGroupID.y; tm < tiles_m; tm += gl_NumWorkGroups.y) {
      for (uint tn = gl_WorkGroupID.x; tn < tiles_n; tn += gl_NumWorkGroups.x) {
        compute_tile(z % p.groups, z / p.groups, tm * BM, tn * BN, tid);
      }
    }
  }
}
