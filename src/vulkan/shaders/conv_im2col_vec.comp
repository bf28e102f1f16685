#version 450
// conv's im2col (conv_im2col.comp's [batch, K, positions] matrix) written as 16-byte words:
// each store holds V = 16 / WIDTH consecutive positions of one row k, where positions is a
// multiple of V (conv.cpp checks), so a subgroup writes one contiguous run and the GEMM
// reads the rows with 16-byte loads. Each invocation owns one group of V positions and a
// run of RUN rows: the positions' input origins are decoded once, then each row costs one
// step of the tap counter and V bounds checks, no divisions. WIDTH 2 (f16, bf16) or 4 (f32).
#extension GL_EXT_control_flow_attributes : enable
#include "common.glsl"
#include "movement_word.glsl"

const uint RUN = 16;
const uint V = 16 / WIDTH;

layout(binding = 0) readonly buffer Src { WORD v[]; } src;
layout(binding = 1) writeonly buffer Dst { uvec4 v[]; } dst;

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

// The input index on one axis for origin q, or -1 on padding or between dilated elements;
// the division only where the input is dilated (a uniform branch).
int source(int q, uint dil, uint dim) {
  if (q < 0) return -1;
  uint i = uint(q);
  if (dil != 1u) {
    if (i % dil != 0u) return -1;
    i /= dil;
  }
  return i < dim ? int(i) : -1;
}

void main() {
  const uint groups_per_image = p.positions / V;
  const uint vcols = p.cols / V;
  const uint runs = (p.k + RUN - 1u) / RUN;
  const uint units = vcols * runs;  // the host keeps batch x K x positions below 2^32
  const uint kd1 = p.k_d1, kd2 = p.k_d2, kd0 = p.taps / (kd1 * kd2);
  for (uint u = global_index(); u < units; u += grid_stride()) {
    const uint vcol = u % vcols, run = u / vcols;
    const uint n = vcol / groups_per_image, g = vcol % groups_per_image;
    // The V positions' origins in the padded, dilated input.
    int q0[V], q1[V], q2[V];
    uint pos = g * V;
    uint o2 = pos % p.out_d2, o1 = (pos / p.out_d2) % p.out_d1, o0 = pos / (p.out_d2 * p.out_d1);
    [[unroll]] for (uint j = 0u; j < V; ++j) {
      q0[j] = int(o0 * p.stride0) - p.pad0;
      q1[j] = int(o1 * p.stride1) - p.pad1;
      q2[j] = int(o2 * p.stride2) - p.pad2;
      if (++o2 == p.out_d2) {
        o2 = 0u;
        if (++o1 == p.out_d1) {
          o1 = 0u;
          ++o0;
        }
      }
    }
    const uint k_begin = run * RUN, k_end = min(p.k, k_begin + RUN);
    uint c = k_begin / p.taps;
    const uint t = k_begin % p.taps;
    uint t2 = t % kd2, t1 = (t / kd2) % kd1, t0 = t / (kd2 * kd1);
    const uint img = n * p.image_stride;
    uint at = (n * p.k + k_begin) * groups_per_image + g;
    for (uint k = k_begin; k < k_end; ++k) {
      const int d0 = int(t0 * p.k_dil0), d1 = int(t1 * p.k_dil1), d2 = int(t2 * p.k_dil2);
      const uint plane = img + c * p.in_plane;
      uint e[V];
      [[unroll]] for (uint j = 0u; j < V; ++j) {
        const int i0 = source(q0[j] + d0, p.in_dil0, p.in_d0);
        const int i1 = source(q1[j] + d1, p.in_dil1, p.in_d1);
        const int i2 = source(q2[j] + d2, p.in_dil2, p.in_d2);
        e[j] = 0u;
        if (i0 >= 0 && i1 >= 0 && i2 >= 0) {
          e[j] = uint(src.v[plane + (uint(i0) * p.in_d1 + uint(i1)) * p.in_d2 + uint(i2)]);
        }
      }
#if WIDTH == 2
      dst.v[at] = uvec4(e[0] | (e[1] << 16), e[2] | (e[3] << 16), e[4] | (e[5] << 16),
                        e[6] | (e[7] << 16));
#else
      dst.v[at] = uvec4(e[0], e[1], e[2], e[3]);
#endif
      at += groups_per_image;
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
