#version 450
// triangular_solve on the device (src/vulkan/ops/linalg_triangular.cpp): for each matrix z of
// the batch, T y = r for every right-hand side r, one invocation per right-hand side, a
// workgroup sharing its batch entry's matrix. The host folds side, triangle and transform
// into two flags: T(i, j) = a(i, j), or a(j, i) when TRANSPOSED; BACKWARD (T upper) walks
// the rows last to first. Positions q = 0..n-1 are rows in walking order, so T is lower
// triangular in q and the solve is a forward substitution in blocks of TILE rows:
//   for each row block I: acc = r[I]; for each block J before I: acc -= T[I, J] x[J]
//   (the TILE x TILE panel staged in shared memory, read by every invocation at once);
//   then the diagonal block solved in registers, and x[I] stored.
// Element (position k, right-hand side s) of b and x: z * n * nrhs + row(k) * k_stride +
// s * s_stride. Only T's own triangle is read. A zero diagonal gives inf/NaN (IEEE
// division), as the cpu's trsm.
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : enable

layout(constant_id = 1) const bool TRANSPOSED = false;
layout(constant_id = 2) const bool BACKWARD = false;

#ifdef VKT_F64
#define REAL double
#else
#define REAL float
#endif

layout(binding = 0) readonly buffer A { REAL v[]; } a;
layout(binding = 1) readonly buffer B { REAL v[]; } b;
layout(binding = 2) buffer X { REAL v[]; } x;

layout(push_constant) uniform Push {
  uint batch, n, nrhs, k_stride, s_stride, groups_per_batch;
} p;

const uint TILE = 16;
shared REAL panel[TILE][TILE + 1];

uint row_of(uint q) { return BACKWARD ? p.n - 1u - q : q; }

// T(row_of(i), row_of(j)) of matrix z.
REAL t_at(uint a_base, uint i, uint j) {
  const uint r = row_of(i), c = row_of(j);
  return TRANSPOSED ? a.v[a_base + c * p.n + r] : a.v[a_base + r * p.n + c];
}

// Stages T's block (rows i0.., cols j0..) in `panel`; outside the matrix, or above the
// diagonal of a diagonal block, it holds zeros (never read from a).
void stage(uint a_base, uint i0, uint j0, bool diagonal) {
  barrier();  // the previous panel is no longer read
  for (uint e = gl_LocalInvocationID.x; e < TILE * TILE; e += gl_WorkGroupSize.x) {
    const uint r = e / TILE, c = e % TILE;
    const bool inside = i0 + r < p.n && j0 + c < p.n && (!diagonal || c <= r);
    panel[r][c] = inside ? t_at(a_base, i0 + r, j0 + c) : REAL(0);
  }
  barrier();
}

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (group >= p.batch * p.groups_per_batch) return;  // a whole workgroup: barriers stay uniform
  const uint z = group / p.groups_per_batch;
  const uint s = (group % p.groups_per_batch) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  const bool has_rhs = s < p.nrhs;
  const uint a_base = z * p.n * p.n;
  const uint rhs_base = z * p.n * p.nrhs + (has_rhs ? s : 0u) * p.s_stride;
  REAL acc[TILE];
  for (uint i0 = 0u; i0 < p.n; i0 += TILE) {
    const uint rows = min(TILE, p.n - i0);
    [[unroll]] for (uint r = 0u; r < TILE; ++r) {
      acc[r] = has_rhs && r < rows ? b.v[rhs_base + row_of(i0 + r) * p.k_stride] : REAL(0);
    }
    for (uint j0 = 0u; j0 < i0; j0 += TILE) {
      stage(a_base, i0, j0, false);
      if (has_rhs) {
        for (uint c = 0u; c < TILE; ++c) {
          const REAL xj = x.v[rhs_base + row_of(j0 + c) * p.k_stride];  // this invocation's own
          [[unroll]] for (uint r = 0u; r < TILE; ++r) acc[r] -= panel[r][c] * xj;
        }
      }
    }
    stage(a_base, i0, i0, true);
    if (has_rhs) {
      [[unroll]] for (uint r = 0u; r < TILE; ++r) {
        if (r < rows) {
          REAL v = acc[r];
          [[unroll]] for (uint c = 0u; c < r; ++c) v -= panel[r][c] * acc[c];
          acc[r] = v / panel[r][r];
          x.v[rhs_base + row_of(i0 + r) * p.k_stride] = acc[r];
        }
      }
    }
  }
}
