#version 450
// A word copy: dst[dst_offset + i] = src[src_offset + i] for i < n (offsets in words).
// The shader alternative to vkCmdCopyBuffer (faster on some devices; see movement.cpp).
// VEC4 (both offsets multiples of 4 words): 16-byte loads and stores, then the last n % 4
// words one by one. Each invocation walks a grid-stride loop (the host launches ~n/4 or
// n/16 invocations), so every invocation moves several coalesced words.
#include "common.glsl"

layout(constant_id = 1) const bool VEC4 = false;

layout(binding = 0) readonly buffer Src { uint v[]; } src;
layout(binding = 0) readonly buffer Src4 { uvec4 v[]; } src4;
layout(binding = 1) writeonly buffer Dst { uint v[]; } dst;
layout(binding = 1) writeonly buffer Dst4 { uvec4 v[]; } dst4;
layout(push_constant) uniform Push { uint n, src_offset, dst_offset; } p;

void main() {
  const uint stride = grid_stride();
  const uint id = global_index();
  if (VEC4) {
    const uint n4 = p.n / 4u, s4 = p.src_offset / 4u, d4 = p.dst_offset / 4u;
    for (uint j = id; j < n4; j += stride) dst4.v[d4 + j] = src4.v[s4 + j];
    const uint t = n4 * 4u + id;
    if (t < p.n) dst.v[p.dst_offset + t] = src.v[p.src_offset + t];
  } else {
    for (uint i = id; i < p.n; i += stride) dst.v[p.dst_offset + i] = src.v[p.src_offset + i];
  }
}
