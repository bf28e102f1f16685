#version 450
// The radix sort's last step (src/vulkan/ops/sort.cpp): item j of sorted line `row` names the
// input element that goes to position j (sort_emit.glsl writes the op's result).
#include "common.glsl"
#define SRC_BINDING 0
#include "sort_key.glsl"
#define DST_BINDING 2
#include "sort_emit.glsl"

layout(binding = 1) readonly buffer Vals { uint v[]; } vals;
layout(push_constant) uniform Push { uint lines, len, inner, k; } p;

void main() {
  const uint e = global_index();
  if (e >= p.lines * p.len) return;
  emit(e / p.len, e % p.len, vals.v[e], p.len, p.inner, p.k);
}
