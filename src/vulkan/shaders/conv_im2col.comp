#version 450
// conv's im2col: the implicit GEMM's right operand written out as [batch, K, positions]
// (K = in channels x taps, row k = c * taps + t as conv.comp orders it), zeros on padding and
// between dilated input elements, so that dot's kernels (cooperative matrices for f16) run
// conv as one batched GEMM: out[n] = kernel [O, K] . cols[n] (conv.cpp; one group only).
// Moves words: one module per element width. Each invocation owns one column (image n,
// output position) and a run of RUN consecutive rows: it decodes its coordinates once and
// steps through the taps and channels, so consecutive invocations store consecutive words.
#include "common.glsl"
#include "movement_word.glsl"

const uint RUN = 32;

layout(binding = 0) readonly buffer Src { WORD v[]; } src;
layout(binding = 1) writeonly buffer Dst { WORD v[]; } dst;

// conv.comp's push constants (ConvPush): cols = batch x positions, k = K; groups is 1.
layout(push_constant) uniform Push {
  uint cols, m, k, groups;
  uint out_channels, positions, taps;
  uint image_stride, group_stride, in_plane;
  uint in_d0, in_d1, in_d2;
  uint out_d1, out_d2;
  uint k_d1, k_d2;
  uint stride0, stride1, stride2;
  int pad0, pad1, pad2;
  uint in_dil0, in_dil1, in_dil2;
  uint k_dil0, k_dil1, k_dil2;
} p;

// The input index on one axis for origin q, or -1 on padding or between dilated elements.
int source(int q, uint dil, uint dim) {
  if (q < 0) return -1;
  uint i = uint(q);
  if (i % dil != 0u) return -1;
  i /= dil;
  return i < dim ? int(i) : -1;
}

void main() {
  const uint runs = (p.k + RUN - 1u) / RUN;
  const uint units = p.cols * runs;  // the host keeps batch x K x positions below 2^32
  const uint kd1 = p.k_d1, kd2 = p.k_d2, kd0 = p.taps / (kd1 * kd2);
  for (uint u = global_index(); u < units; u += grid_stride()) {
    const uint col = u % p.cols, run = u / p.cols;
    const uint n = col / p.positions, pos = col % p.positions;
    const uint o2 = pos % p.out_d2, o1 = (pos / p.out_d2) % p.out_d1,
               o0 = pos / (p.out_d2 * p.out_d1);
    const int q0 = int(o0 * p.stride0) - p.pad0, q1 = int(o1 * p.stride1) - p.pad1,
              q2 = int(o2 * p.stride2) - p.pad2;
    const uint k_begin = run * RUN, k_end = min(p.k, k_begin + RUN);
    uint c = k_begin / p.taps;
    const uint t = k_begin % p.taps;
    uint t2 = t % kd2, t1 = (t / kd2) % kd1, t0 = t / (kd2 * kd1);
    const uint img = n * p.image_stride;
    uint at = (n * p.k + k_begin) * p.positions + pos;
    for (uint k = k_begin; k < k_end; ++k) {
      const int i0 = source(q0 + int(t0 * p.k_dil0), p.in_dil0, p.in_d0);
      const int i1 = source(q1 + int(t1 * p.k_dil1), p.in_dil1, p.in_d1);
      const int i2 = source(q2 + int(t2 * p.k_dil2), p.in_dil2, p.in_d2);
      REG v = REG(0);
      if (i0 >= 0 && i1 >= 0 && i2 >= 0) {
        v = TO_REG(src.v[img + c * p.in_plane + (uint(i0) * p.in_d1 + uint(i1)) * p.in_d2 +
                         uint(i2)]);
      }
      dst.v[at] = TO_WORD(v);
      at += p.positions;
      // The next tap, carrying into the next channel.
      if (++t2 == kd2) {
        t2 = 0u;
        if (++t1 == kd1) {
          t1 = 0u;
          if (++t0 == kd0) {
            t0 = 0u;
            ++c;
          }
        }
      }
    }
  }
}
