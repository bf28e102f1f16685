#version 450
// The exclusive prefix sum (in place) of the radix sort's digit counts (src/vulkan/ops/sort.cpp),
// in blocks of BLOCK = 16 * workgroup size entries:
//   PHASE_REDUCE: block sums; PHASE_BLOCKS: one workgroup scans the block sums in place;
//   PHASE_APPLY: each block scanned from its block's offset.
#include "common.glsl"
#include "sort_scan.glsl"

layout(constant_id = 1) const uint PHASE = 0;
const uint PHASE_REDUCE = 0, PHASE_BLOCKS = 1, PHASE_APPLY = 2;
#define PER_INVOCATION 16u
const uint BLOCK = PER_INVOCATION * gl_WorkGroupSize.x;

layout(binding = 0) buffer Data { uint v[]; } data;
layout(binding = 1) buffer Sums { uint v[]; } sums;
layout(push_constant) uniform Push { uint n, blocks; } p;

shared uint partial[gl_WorkGroupSize.x];

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint lid = gl_LocalInvocationID.x, threads = gl_WorkGroupSize.x;
  if (PHASE == PHASE_BLOCKS) {
    if (group != 0u) return;
    const uint chunk = (p.blocks + threads - 1u) / threads;
    const uint b0 = min(p.blocks, lid * chunk), b1 = min(p.blocks, b0 + chunk);
    uint sum = 0u;
    for (uint b = b0; b < b1; ++b) sum += sums.v[b];
    uint prefix = workgroup_exclusive_scan(sum);
    for (uint b = b0; b < b1; ++b) {
      const uint v = sums.v[b];
      sums.v[b] = prefix;
      prefix += v;
    }
    return;
  }
  if (group >= p.blocks) return;
  const uint base = group * BLOCK;
  if (PHASE == PHASE_REDUCE) {
    uint sum = 0u;
    for (uint i = 0u; i < PER_INVOCATION; ++i) {
      const uint e = base + i * threads + lid;  // coalesced
      if (e < p.n) sum += data.v[e];
    }
    partial[lid] = sum;
    barrier();
    for (uint half_ = threads / 2u; half_ > 0u; half_ >>= 1u) {
      if (lid < half_) partial[lid] += partial[lid + half_];
      barrier();
    }
    if (lid == 0u) sums.v[group] = partial[0];
    return;
  }
  const uint first = base + lid * PER_INVOCATION;
  uint run[PER_INVOCATION];
  uint sum = 0u;
  for (uint i = 0u; i < PER_INVOCATION; ++i) {
    run[i] = first + i < p.n ? data.v[first + i] : 0u;
    sum += run[i];
  }
  uint prefix = sums.v[group] + workgroup_exclusive_scan(sum);
  for (uint i = 0u; i < PER_INVOCATION; ++i) {
    if (first + i < p.n) data.v[first + i] = prefix;
    prefix += run[i];
  }
}
