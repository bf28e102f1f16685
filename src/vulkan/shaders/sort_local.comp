#version 450
// Lines of at most CAP elements sorted inside one workgroup (src/vulkan/ops/sort.cpp): each
// line is padded to P (a power of two >= len) with keys that sort last, CAP / P lines per
// workgroup, and a bitonic network over (key, index) sorts each P-block in shared memory.
// (key, index) is a total order, so the result is the stable one the cpu gives.
#include "common.glsl"
#define SRC_BINDING 0
#include "sort_key.glsl"
#define DST_BINDING 1
#include "sort_emit.glsl"

layout(constant_id = 4) const uint CAP = 2048;     // elements per workgroup, a power of two
layout(constant_id = 5) const uint HI_CAP = 1;     // CAP for 64-bit keys, else 1

layout(push_constant) uniform Push { uint lines, len, inner, k, p2, log2_p2; } p;

shared uint key_lo[CAP];
shared uint key_hi[HI_CAP];
shared uint index_of[CAP];

uvec2 key_at(uint i) { return uvec2(key_lo[i], ELEM_BITS == 64u ? key_hi[i] : 0u); }

// Does element b sort before element a?
bool before(uint b, uint a) {
  const uvec2 kb = key_at(b), ka = key_at(a);
  if (kb.y != ka.y) return kb.y < ka.y;
  if (kb.x != ka.x) return kb.x < ka.x;
  return index_of[b] < index_of[a];
}

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint per_group = CAP >> p.log2_p2;
  if (group * per_group >= p.lines) return;  // whole workgroups of a 2-D grid's excess
  const uint lid = gl_LocalInvocationID.x, threads = gl_WorkGroupSize.x;
  for (uint i = lid; i < CAP; i += threads) {
    const uint row = group * per_group + (i >> p.log2_p2), j = i & (p.p2 - 1u);
    uvec2 key = uvec2(~0u);
    uint index = ~0u;  // padding: after every real element
    if (row < p.lines && j < p.len) {
      key = sort_key(line_start(row, p.len, p.inner) + j * p.inner);
      index = j;
    }
    key_lo[i] = key.x;
    if (ELEM_BITS == 64u) key_hi[i] = key.y;
    index_of[i] = index;
  }
  barrier();
  for (uint size = 2u; size <= p.p2; size <<= 1u) {
    for (uint stride = size >> 1u; stride > 0u; stride >>= 1u) {
      // One invocation per compared pair: i has the stride bit clear, its partner set.
      for (uint pair = lid; pair < CAP / 2u; pair += threads) {
        const uint i = ((pair & ~(stride - 1u)) << 1u) | (pair & (stride - 1u));
        const uint partner = i | stride;
        // Each P-block ends ascending; smaller bitonic blocks alternate direction.
        const bool up = size == p.p2 || (i & size) == 0u;
        if (up ? before(partner, i) : before(i, partner)) {
          const uint lo = key_lo[i], ix = index_of[i];
          key_lo[i] = key_lo[partner];
          key_lo[partner] = lo;
          index_of[i] = index_of[partner];
          index_of[partner] = ix;
          if (ELEM_BITS == 64u) {
            const uint hi = key_hi[i];
            key_hi[i] = key_hi[partner];
            key_hi[partner] = hi;
          }
        }
      }
      barrier();
    }
  }
  for (uint i = lid; i < CAP; i += threads) {
    const uint row = group * per_group + (i >> p.log2_p2), j = i & (p.p2 - 1u);
    if (row < p.lines && j < p.len) emit(row, j, index_of[i], p.len, p.inner, p.k);
  }
}
