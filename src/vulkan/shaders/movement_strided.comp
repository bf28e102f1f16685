#version 450
// A strided copy: for each multi-index x over shape (row-major order of the invocation id),
// dst[dst_offset + sum x_k * dst_stride_k] = src[src_offset + sum x_k * src_stride_k].
// broadcast (stride 0), transpose, reverse (negative strides), slice, put_slice's update,
// inner-axis concatenate. The host collapses axes, so most views have rank 1-3.
#include "common.glsl"
#include "movement_word.glsl"

// RANK (>= 1) as a constant unrolls the walk; the outermost axis needs no division.
layout(constant_id = 1) const uint RANK = 1;
// The destination is the view's own row-major order (single-input ops): dst index = id, a
// plain contiguous store (drivers that vectorise, like lavapipe, then store whole vectors).
layout(constant_id = 2) const bool DST_CONTIGUOUS = false;

layout(binding = 0) readonly buffer Src { WORD v[]; } src;
layout(binding = 1) buffer Dst { WORD v[]; } dst;
layout(push_constant) uniform Push {
  uint n, shifts;  // shifts: axis k's divisor shift in bits 6(k-1)..6k-1 (k >= 1)
  int src_offset, dst_offset;
  uint shape[MAX_RANK];
  int src_stride[MAX_RANK];
  int dst_stride[MAX_RANK];
  uint magic[MAX_RANK];  // axis k's divisor magic (axis 0 needs none)
} p;

// Source and destination word indices of element i.
uvec2 locate(uint i) {
  uint rem = i;
  int s = p.src_offset, d = p.dst_offset;
  for (int k = int(RANK) - 1; k > 0; --k) {
    const uint q = fast_div(rem, p.magic[k], shift_at(p.shifts, k - 1));
    const int x = int(rem - q * p.shape[k]);
    rem = q;
    s += x * p.src_stride[k];
    d += x * p.dst_stride[k];
  }
  s += int(rem) * p.src_stride[0];
  d += int(rem) * p.dst_stride[0];
  return uvec2(uint(s), DST_CONTIGUOUS ? i : uint(d));
}

void main() {
  const uint stride = grid_stride(), end = unrolled_end(p.n, stride);
  uint i = global_index();
  for (; i < end; i += 4u * stride) {
    const uvec2 a0 = locate(i), a1 = locate(i + stride);
    const uvec2 a2 = locate(i + 2u * stride), a3 = locate(i + 3u * stride);
    const REG w0 = TO_REG(src.v[a0.x]), w1 = TO_REG(src.v[a1.x]);
    const REG w2 = TO_REG(src.v[a2.x]), w3 = TO_REG(src.v[a3.x]);
    dst.v[a0.y] = TO_WORD(w0);
    dst.v[a1.y] = TO_WORD(w1);
    dst.v[a2.y] = TO_WORD(w2);
    dst.v[a3.y] = TO_WORD(w3);
  }
  for (; i < p.n; i += stride) {
    const uvec2 a = locate(i);
    dst.v[a.y] = src.v[a.x];
  }
}
