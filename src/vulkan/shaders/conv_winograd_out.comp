#version 450
// conv by Winograd's minimal filtering (conv_winograd.cpp), the pass out of the transform
// domain: at one (p0, p1, tile), the GEMM's 16 matrices M[xi][p0, p1, t] give the tile's
// S x S outputs O M O^T, stored where they fall inside out [P0, P1, OH, OW]. The last pass
// computes as the direct sum does (channels, then taps, padding read as zeros) an output
// whose window reads only padding, which the transforms would give its neighbours' rounding
// residue in place of 0, and an output that comes out NaN or infinite, so non-finite inputs
// and overflow give the cpu's NaN or infinity: the transforms mix values, and one infinity
// in a patch would make its tile NaN.
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : enable

// 0: F(2x2, 3x3)'s A^T (2 x 2 outputs); 1: F(3x3, 2x2)'s output transform (3 x 3: the
// G^T of F(2x2, 3x3)).
layout(constant_id = 1) const uint TRANSFORM = 0;
const uint S = TRANSFORM == 0u ? 2u : 3u;

layout(binding = 0) readonly buffer Gemm { float v[]; } m;
layout(binding = 1) buffer Out { float v[]; } dst;
layout(binding = 2) readonly buffer Input { float v[]; } x;    // the conv's [P0, C, H, W]
layout(binding = 3) readonly buffer Kernel { float v[]; } k;   // and its [P1, C, KH, KW]

layout(push_constant) uniform Push {
  uint p0n, p1n, p0_begin;  // this pass's p0 (images) from p0_begin, and every p1
  uint oh, ow, tiles_h, tiles_w;
  uint xi_stride, m_p0, m_p1, m_t;  // M[xi] [p0, p1, t], p0 within the pass
  uint accumulate;                  // add to the output (a later chunk of K), else store
  uint last;  // 1: the last chunk (direct sums for all-padding windows); 2: also non-finite
  uint c, h, w, kh, kw;
  int pad_h, pad_w;
} p;

// Row i of the output transform applied to v.
float row(uint i, float v[4]) {
  if (TRANSFORM == 0u) {  // A^T = [1 1 1 0; 0 1 -1 -1]
    return i == 0u ? v[0] + v[1] + v[2] : v[1] - v[2] - v[3];
  }
  // [1 1/2 1/2 0; 0 1/2 -1/2 0; 0 1/2 1/2 1]
  return i == 0u   ? v[0] + 0.5 * (v[1] + v[2])
         : i == 1u ? 0.5 * (v[1] - v[2])
                   : 0.5 * (v[1] + v[2]) + v[3];
}

bool finite(float v) {
  return (floatBitsToUint(v) & 0x7f800000u) != 0x7f800000u;  // immune to fast-math folding
}

// Whether output (y, xo)'s window lies wholly in the padding.
bool padding_only(uint y, uint xo) {
  const int y0 = int(y) - p.pad_h, x0 = int(xo) - p.pad_w;
  return y0 + int(p.kh) <= 0 || y0 >= int(p.h) || x0 + int(p.kw) <= 0 || x0 >= int(p.w);
}

bool isnan_bits(float v) {
  return (floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u;
}

// out[n, o, y, xo] as conv.comp sums it: padding contributes 0 * w (NaN for a NaN weight).
float direct(uint n, uint o, uint y, uint xo) {
  float sum = 0.0;
  for (uint c = 0; c < p.c; ++c) {
    const uint xb = (n * p.c + c) * p.h * p.w, kb = (o * p.c + c) * p.kh * p.kw;
    for (uint i = 0; i < p.kh; ++i) {
      const int yy = int(y + i) - p.pad_h;
      for (uint j = 0; j < p.kw; ++j) {
        const int xx = int(xo + j) - p.pad_w;
        const bool inside = yy >= 0 && uint(yy) < p.h && xx >= 0 && uint(xx) < p.w;
        const float v = inside ? x.v[xb + uint(yy) * p.w + uint(xx)] : 0.0;
        sum += v * k.v[kb + i * p.kw + j];
      }
    }
    if (isnan_bits(sum)) break;  // NaN stays NaN: a diverged step's recompute stays short
  }
  return sum;
}

void main() {
  const uint tiles = p.tiles_h * p.tiles_w;
  const uint units = p.p0n * p.p1n * tiles;  // the host keeps every index below 2^32
  for (uint u = global_index(); u < units; u += grid_stride()) {
    const uint t = u % tiles, p1 = (u / tiles) % p.p1n, p0 = u / (tiles * p.p1n);
    const uint at = p0 * p.m_p0 + p1 * p.m_p1 + t * p.m_t;
    // O M: S rows of 4.
    float om[3][4];
    [[unroll]] for (uint j = 0; j < 4; ++j) {
      float col[4];
      [[unroll]] for (uint i = 0; i < 4; ++i) col[i] = m.v[(i * 4u + j) * p.xi_stride + at];
      [[unroll]] for (uint i = 0; i < S; ++i) om[i][j] = row(i, col);
    }
    const uint n = p.p0_begin + p0;
    const uint y0 = (t / p.tiles_w) * S, x0 = (t % p.tiles_w) * S;
    [[unroll]] for (uint i = 0; i < S; ++i) {
      const float r[4] = float[4](om[i][0], om[i][1], om[i][2], om[i][3]);
      [[unroll]] for (uint j = 0; j < S; ++j) {
        const uint y = y0 + i, xo = x0 + j;
        if (y < p.oh && xo < p.ow) {
          const uint o = ((n * p.p1n + p1) * p.oh + y) * p.ow + xo;
          float v = row(j, r);
          if (p.accumulate != 0u) v += dst.v[o];
          if ((p.last & 1u) != 0u && (padding_only(y, xo) || ((p.last & 2u) != 0u && !finite(v)))) {
            v = direct(n, p1, y, xo);
          }
          dst.v[o] = v;
        }
      }
    }
  }
}
