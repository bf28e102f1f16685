#version 450
// The radix sort's first step (src/vulkan/ops/sort.cpp): element j of line `row` becomes the
// item (key, j) at row * len + j, lines laid out one after another whatever the axis.
#include "common.glsl"
#define SRC_BINDING 0
#include "sort_key.glsl"

layout(binding = 1) writeonly buffer Keys { uint v[]; } keys;
layout(binding = 2) writeonly buffer Vals { uint v[]; } vals;
layout(push_constant) uniform Push { uint lines, len, inner; } p;

void main() {
  const uint e = global_index();
  if (e >= p.lines * p.len) return;
  const uint row = e / p.len, j = e % p.len;
  const uvec2 key = sort_key(line_start(row, p.len, p.inner) + j * p.inner);
  if (ELEM_BITS == 64u) {
    keys.v[2u * e] = key.x;
    keys.v[2u * e + 1u] = key.y;
  } else {
    keys.v[e] = key.x;
  }
  vals.v[e] = j;
}
