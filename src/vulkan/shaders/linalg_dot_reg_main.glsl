// dot for float dtypes as a register-blocked GEMM with double-buffered shared memory: the
// same problem, push constants, strides, batch, grid-stride tile loop and split K (MODE 0
// and 1; the MODE 2 pass of linalg_dot.comp adds the partials) as linalg_dot.comp.
// What differs:
// - shared memory holds two K steps: the next step's global values are fetched into
//   registers while the current step computes and are stored into the other buffer, so a
//   step needs one barrier instead of two;
// - shared tiles are vec4 rows (As[k][m], Bs[k][n]; row pitch one vec4 more than the tile
//   against bank conflicts on the transposing writes), and an invocation reads its TM x TN
//   micro-tile as TM/4 + TN/4 vec4 loads per k: rows (i/4)*64 + ty*4 + i%4 and columns
//   (j/4)*64 + tx*4 + j%4, so each quarter-warp reads 256 consecutive bytes;
// - where the unit-stride axis of an operand allows it (A_VEC / B_VEC: stride 1, the other
//   strides and that axis's extent multiples of 4), global reads are 4-wide.
// f16/bf16 widen to f32, accumulate in f32 and round once on store; f64 accumulates in f64
// (linalg_float_io.glsl).
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : enable

layout(constant_id = 1) const uint DTYPE = DT_F32;
layout(constant_id = 2) const uint TM = 8;  // 4 or 8
layout(constant_id = 3) const uint TN = 8;  // 4 or 8
layout(constant_id = 4) const uint BK = 16;
layout(constant_id = 5) const bool A_K_CONTIG = true;
layout(constant_id = 6) const bool B_K_CONTIG = false;
layout(constant_id = 7) const uint MODE = 0;  // 0: C = A B; 1: partial sums per K chunk
layout(constant_id = 8) const uint GROUP_M = 8;
layout(constant_id = 9) const bool A_VEC = false;
layout(constant_id = 10) const bool B_VEC = false;

const uint SIDE = 16;
const uint THREADS = SIDE * SIDE;
const uint BM = SIDE * TM;
const uint BN = SIDE * TN;
const uint PA = BM / 4 + 1;  // shared row pitches in vec4
const uint PB = BN / 4 + 1;
const uint WA = A_VEC ? 4 : 1;  // elements per global read
const uint WB = B_VEC ? 4 : 1;
const uint UNITS_A = BM * BK / WA;  // global reads per tile step
const uint UNITS_B = BN * BK / WB;
const uint LOADS_A = (UNITS_A + THREADS - 1) / THREADS;
const uint LOADS_B = (UNITS_B + THREADS - 1) / THREADS;

#include "linalg_float_io.glsl"

#ifdef VKT_DOT_EPILOGUE
// vkt::compile's dot groups (compiled_dot.cpp) define it after this file: C's value c for
// element `at` of the contiguous output, through the epilogue, stored (MODE 0 only).
void dot_epilogue(uint at, ACC c);
#endif

#ifdef VKT_F64
#define VEC4 dvec4
#else
#define VEC4 vec4
#endif

layout(binding = 0) readonly buffer AV4 { vec4 v[]; } a_v4;
layout(binding = 0) readonly buffer AH4 { u16vec4 v[]; } a_h4;
layout(binding = 1) readonly buffer BV4 { vec4 v[]; } b_v4;
layout(binding = 1) readonly buffer BH4 { u16vec4 v[]; } b_h4;
#ifdef VKT_F64
layout(binding = 0) readonly buffer AD4 { dvec4 v[]; } a_d4;
layout(binding = 1) readonly buffer BD4 { dvec4 v[]; } b_d4;
#endif

#include "linalg_dot_push.glsl"

shared VEC4 As[2 * BK * PA];
shared VEC4 Bs[2 * BK * PB];

VEC4 widen4(uvec4 bits) {
  return VEC4(half_to_acc(bits.x), half_to_acc(bits.y), half_to_acc(bits.z), half_to_acc(bits.w));
}

// Four consecutive elements from element index i (a multiple of 4).
VEC4 load_a4(uint i) {
#ifdef VKT_F64
  if (DTYPE == DT_F64) return a_d4.v[i / 4];
#endif
  if (DTYPE == DT_F16 || DTYPE == DT_BF16) return widen4(uvec4(a_h4.v[i / 4]));
  return VEC4(a_v4.v[i / 4]);
}
VEC4 load_b4(uint i) {
#ifdef VKT_F64
  if (DTYPE == DT_F64) return b_d4.v[i / 4];
#endif
  if (DTYPE == DT_F16 || DTYPE == DT_BF16) return widen4(uvec4(b_h4.v[i / 4]));
  return VEC4(b_v4.v[i / 4]);
}

// Tile coordinates (row, k) of the first element of global read u; consecutive u run along
// the operand's unit-stride axis, WA (WB) elements at a time.
uvec2 a_slot(uint u) {
  return A_K_CONTIG ? uvec2(u / (BK / WA), (u % (BK / WA)) * WA)
                    : uvec2((u % (BM / WA)) * WA, u / (BM / WA));
}
uvec2 b_slot(uint u) {
  return B_K_CONTIG ? uvec2(u / (BK / WB), (u % (BK / WB)) * WB)
                    : uvec2((u % (BN / WB)) * WB, u / (BN / WB));
}

void put_a(uint buf, uint row, uint kk, ACC x) {
  As[(buf * BK + kk) * PA + row / 4][row % 4] = x;
}
void put_b(uint buf, uint col, uint kk, ACC x) {
  Bs[(buf * BK + kk) * PB + col / 4][col % 4] = x;
}

void compute_tile(uint bi, uint k_begin, uint k_end, uint out_base, uint out_row, uint m0,
                  uint n0, uint tid) {
  const uint tx = tid % SIDE, ty = tid / SIDE;
  const uint a_base = bi * p.sab, b_base = bi * p.sbb;
  VEC4 acc[TM][TN / 4];
  [[unroll]] for (uint i = 0; i < TM; ++i) {
    [[unroll]] for (uint j = 0; j < TN / 4; ++j) acc[i][j] = VEC4(0);
  }
  VEC4 ra[LOADS_A];
  VEC4 rb[LOADS_B];

  // Global values of the step at k0 into registers (zeros outside the matrices; a 4-wide
  // read is wholly inside or wholly outside, as the host checked).
  #define FETCH(k0)                                                                         \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                         \
      const uint u = tid + r * THREADS;                                                     \
      const uvec2 s = a_slot(u);                                                            \
      const uint gm = m0 + s.x, gk = (k0) + s.y;                                            \
      const bool in_ = u < UNITS_A && gm < p.m && gk < k_end;                               \
      const uint at = a_base + gm * p.sam + gk * p.sak;                                     \
      ra[r] = !in_ ? VEC4(0) : A_VEC ? load_a4(at) : VEC4(load_a(at), 0, 0, 0);             \
    }                                                                                       \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                         \
      const uint u = tid + r * THREADS;                                                     \
      const uvec2 s = b_slot(u);                                                            \
      const uint gn = n0 + s.x, gk = (k0) + s.y;                                            \
      const bool in_ = u < UNITS_B && gn < p.n && gk < k_end;                               \
      const uint at = b_base + gk * p.sbk + gn * p.sbn;                                     \
      rb[r] = !in_ ? VEC4(0) : B_VEC ? load_b4(at) : VEC4(load_b(at), 0, 0, 0);             \
    }

  // The fetched registers into shared buffer `buf`.
  #define STORE(buf)                                                                        \
    [[unroll]] for (uint r = 0; r < LOADS_A; ++r) {                                         \
      const uint u = tid + r * THREADS;                                                     \
      if (u < UNITS_A) {                                                                    \
        const uvec2 s = a_slot(u);                                                          \
        if (!A_VEC) {                                                                       \
          put_a((buf), s.x, s.y, ra[r].x);                                                    \
        } else if (A_K_CONTIG) {                                                            \
          [[unroll]] for (uint c = 0; c < 4; ++c) put_a((buf), s.x, s.y + c, ra[r][c]);       \
        } else {                                                                            \
          As[((buf) * BK + s.y) * PA + s.x / 4] = ra[r];                                      \
        }                                                                                   \
      }                                                                                     \
    }                                                                                       \
    [[unroll]] for (uint r = 0; r < LOADS_B; ++r) {                                         \
      const uint u = tid + r * THREADS;                                                     \
      if (u < UNITS_B) {                                                                    \
        const uvec2 s = b_slot(u);                                                          \
        if (!B_VEC) {                                                                       \
          put_b((buf), s.x, s.y, rb[r].x);                                                    \
        } else if (B_K_CONTIG) {                                                            \
          [[unroll]] for (uint c = 0; c < 4; ++c) put_b((buf), s.x, s.y + c, rb[r][c]);       \
        } else {                                                                            \
          Bs[((buf) * BK + s.y) * PB + s.x / 4] = rb[r];                                      \
        }                                                                                   \
      }                                                                                     \
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
      [[unroll]] for (uint g = 0; g < TM / 4; ++g) a[g] = As[(buf * BK + kk) * PA + g * SIDE + ty];
      [[unroll]] for (uint g = 0; g < TN / 4; ++g) b[g] = Bs[(buf * BK + kk) * PB + g * SIDE + tx];
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

  [[unroll]] for (uint i = 0; i < TM; ++i) {
    const uint gm = m0 + (i / 4) * (SIDE * 4) + ty * 4 + i % 4;
    if (gm >= p.m) continue;
    [[unroll]] for (uint j = 0; j < TN / 4; ++j) {
      const uint gn0 = n0 + j * (SIDE * 4) + tx * 4;
      [[unroll]] for (uint c = 0; c < 4; ++c) {
        if (gn0 + c >= p.n) break;
        const uint at = out_base + gm * out_row + gn0 + c;
#ifdef VKT_DOT_EPILOGUE
        dot_epilogue(at, acc[i][j][c]);
#else
        if (MODE == 1) {
          store_partial(at, acc[i][j][c]);
        } else {
          store_c(at, acc[i][j][c]);
        }
#endif
      }
    }
  }
}

#include "linalg_dot_tiles.glsl"

void main() {
  run_tiles(gl_LocalInvocationID.x);
}
