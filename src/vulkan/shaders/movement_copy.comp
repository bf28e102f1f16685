#version 450
// A word copy: dst[dst_offset + i] = src[src_offset + i] for i < n (offsets in words).
// The shader alternative to vkCmdCopyBuffer (faster on some devices; see movement.cpp).
#include "common.glsl"

layout(binding = 0) readonly buffer Src { uint v[]; } src;
layout(binding = 1) writeonly buffer Dst { uint v[]; } dst;
layout(push_constant) uniform Push { uint n, src_offset, dst_offset; } p;

void main() {
  const uint i = global_index();
  if (i >= p.n) return;
  dst.v[p.dst_offset + i] = src.v[p.src_offset + i];
}
