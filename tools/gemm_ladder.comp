#version 450
// vkt-coopmat-peak --ladder: the dot's default f16 schedule (linalg_dot_coopmat.comp at
// 128 x 128 x 64, one stage) with its parts switched on one at a time, to find which of them
// keeps it from the tensor cores' rate. A workgroup of four subgroups owns 128 x 128 of
// C = A B (A [N][N], B [N][N], row-major f16, every element 2^-6, so that any unit read or
// stored anywhere holds the same values and C is known), 64 x 64 per subgroup; each K step
// of 64 loads its fragments from one shared buffer of padded rows (A [128][64], B [64][128])
// and multiplies, as the dot kernel does. Then:
// SYNC 0: nothing else (the multiplies with their fragment loads);
// SYNC 1: + a barrier, the next step's 32 KiB stored (16 uvec4 per invocation), a barrier:
//   the dot kernel's one-stage schedule, the one 48 KiB of shared memory allows at BK 64;
// SYNC 2: + the stores with one barrier per step: the schedule a second stage would give
//   (here the stores race with slower subgroups' fragment loads, harmless: all values equal).
// FETCH 1 (with SYNC 1 or 2): the stored units are read from A and B at the step's start,
//   one step ahead, as the dot kernel's hoisted reads; else the stores write constants.
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_control_flow_attributes : enable

layout(local_size_x = 128) in;
layout(constant_id = 0) const uint SYNC = 0;
layout(constant_id = 1) const bool FETCH = false;

layout(push_constant) uniform Push { uint n; } p;  // a multiple of 1024
layout(binding = 0) readonly buffer A { uvec4 v[]; } a;
layout(binding = 1) readonly buffer B { uvec4 v[]; } b;
layout(binding = 2) writeonly buffer Out { float v[]; } out_f;

const uint F = 16, BK = 64, THREADS = 128, GROUP_M = 8;
const uint A_RU = BK / 8, A_PITCH = A_RU + 1, B_RU = 128 / 8, B_PITCH = B_RU + 1;
const uint A_SIZE = 128 * A_PITCH, LOADS = 8;  // units per invocation per operand
const uint TWO_HALVES = 0x24002400u;           // 2^-6, twice
shared uvec4 smem[A_SIZE + BK * B_PITCH];

#define ACC fcoopmatNV<32, gl_ScopeSubgroup, F, F>
#define OPERAND fcoopmatNV<16, gl_ScopeSubgroup, F, F>

void main() {
  const uint tid = gl_LocalInvocationID.x, w = gl_SubgroupID;
  const uint wm = (w / 2) * 64, wn = (w % 2) * 64;
  // The dot kernel's walk: bands of GROUP_M tile rows.
  const uint tiles = p.n / 128, band = GROUP_M * tiles, t = gl_WorkGroupID.x;
  const uint m0 = ((t / band) * GROUP_M + (t % band) % GROUP_M) * 128;
  const uint n0 = ((t % band) / GROUP_M) * 128;
  uint a_unit[LOADS], b_unit[LOADS];
  [[unroll]] for (uint r = 0; r < LOADS; ++r) {
    const uint u = tid + r * THREADS;
    a_unit[r] = ((m0 + u / A_RU) * p.n + (u % A_RU) * 8) / 8;
    b_unit[r] = ((u / B_RU) * p.n + n0 + (u % B_RU) * 8) / 8;
  }
  uvec4 va[LOADS], vb[LOADS];
  [[unroll]] for (uint r = 0; r < LOADS; ++r) {
    va[r] = uvec4(TWO_HALVES);
    vb[r] = uvec4(TWO_HALVES);
  }
  #define STORE                                                                            \
    [[unroll]] for (uint r = 0; r < LOADS; ++r) {                                          \
      const uint u = tid + r * THREADS;                                                    \
      smem[(u / A_RU) * A_PITCH + u % A_RU] = va[r];                                       \
      smem[A_SIZE + (u / B_RU) * B_PITCH + u % B_RU] = vb[r];                              \
    }
  STORE
  barrier();
  ACC acc[16];
  [[unroll]] for (uint i = 0; i < 16; ++i) acc[i] = ACC(0.0);
  const uint steps = p.n / BK;
  for (uint s = 0; s < steps; ++s) {
    if (FETCH && s + 1 < steps) {
      const uint ka = (s + 1) * BK / 8, kb = (s + 1) * BK * p.n / 8;
      [[unroll]] for (uint r = 0; r < LOADS; ++r) {
        va[r] = a.v[a_unit[r] + ka];
        vb[r] = b.v[b_unit[r] + kb];
      }
    }
    [[unroll]] for (uint kf = 0; kf < BK; kf += F) {
      OPERAND fa[4];
      [[unroll]] for (uint i = 0; i < 4; ++i) {
        coopMatLoadNV(fa[i], smem, (wm + i * F) * A_PITCH + kf / 8, A_PITCH, false);
      }
      [[unroll]] for (uint j = 0; j < 4; ++j) {
        OPERAND fb;
        coopMatLoadNV(fb, smem, A_SIZE + kf * B_PITCH + (wn + j * F) / 8, B_PITCH, false);
        [[unroll]] for (uint i = 0; i < 4; ++i) {
          acc[i * 4 + j] = coopMatMulAddNV(fa[i], fb, acc[i * 4 + j]);
        }
      }
    }
    if (SYNC == 1) {
      barrier();
      STORE
      barrier();
    } else if (SYNC == 2) {
      STORE
      barrier();
    }
  }
  #undef STORE
  // acc[0] is checked by the host; the others are stored only under a condition the host
  // never sets, which keeps them live.
  const uint slot = (gl_WorkGroupID.x * 4 + w) * F * F;
  [[unroll]] for (uint i = 0; i < 16; ++i) {
    if (i == 0 || p.n > (1u << 30)) coopMatStoreNV(acc[i], out_f.v, slot, F, false);
  }
}
