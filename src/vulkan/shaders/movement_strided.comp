#version 450
// A strided copy: for each multi-index x over shape (row-major order of the invocation id),
// dst[dst_offset + sum x_k * dst_stride_k] = src[src_offset + sum x_k * src_stride_k].
// broadcast (stride 0), transpose, reverse (negative strides), slice, put_slice's update,
// inner-axis concatenate. The host collapses axes, so most views have rank 1-3.
#include "common.glsl"
#include "movement_word.glsl"

layout(binding = 0) readonly buffer Src { WORD v[]; } src;
layout(binding = 1) buffer Dst { WORD v[]; } dst;
layout(push_constant) uniform Push {
  uint n, rank;
  int src_offset, dst_offset;
  uint shape[MAX_RANK];
  int src_stride[MAX_RANK];
  int dst_stride[MAX_RANK];
} p;

void main() {
  const uint i = global_index();
  if (i >= p.n) return;
  uint rem = i;
  int s = p.src_offset, d = p.dst_offset;
  for (int k = int(p.rank) - 1; k >= 0; --k) {
    const uint x = rem % p.shape[k];
    rem /= p.shape[k];
    s += int(x) * p.src_stride[k];
    d += int(x) * p.dst_stride[k];
  }
  dst.v[d] = src.v[s];
}
