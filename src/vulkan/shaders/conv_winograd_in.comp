#version 450
// conv by Winograd's minimal filtering (conv_winograd.cpp), the pass into the transform
// domain: an R x R patch P of a contiguous f32 [P0, P1, H, W] tensor becomes L P L^T (4 x 4),
// stored as 16 matrices T[xi][...] that dot's batched GEMM multiplies. One invocation per
// (p0, p1, tile), tiles fastest, so neighbours store neighbouring words. A patch starts at
// (STEP * tile row - pad, STEP * tile column - pad) and reads zeros outside the plane (the
// conv's padding, and a kernel's rows past its odd end).
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : enable

// 0: B^T on 4 x 4 data patches (both algorithms); 1: F(2x2, 3x3)'s G on a 3 x 3 kernel;
// 2: F(3x3, 2x2)'s kernel transform on a 2 x 2 tile of a large kernel (F(2x2, 3x3)'s A).
layout(constant_id = 1) const uint TRANSFORM = 0;
const uint R = TRANSFORM == 0u ? 4u : TRANSFORM == 1u ? 3u : 2u;

layout(binding = 0) readonly buffer Src { float v[]; } src;
layout(binding = 1) writeonly buffer Dst { float v[]; } dst;

layout(push_constant) uniform Push {
  uint p0n, p1n;            // this pass's extents of p0 and p1 (a chunk's)
  uint p0_begin, p1_begin;  // their first indices in the source
  uint src_p0, src_p1;      // source strides of p0 and p1 (a plane is H x W, contiguous)
  uint h, w, tiles_h, tiles_w, step;
  int pad_h, pad_w;
  uint xi_stride, dst_p0, dst_p1, dst_t;  // T[xi] [p0, p1, t], indices within the chunk
} p;

// Row i of L applied to v (only R of its entries are read).
float row(uint i, float v[4]) {
  if (TRANSFORM == 0u) {  // B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
    return i == 0u ? v[0] - v[2] : i == 1u ? v[1] + v[2] : i == 2u ? v[2] - v[1] : v[1] - v[3];
  }
  if (TRANSFORM == 1u) {  // G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1]
    return i == 0u   ? v[0]
           : i == 1u ? 0.5 * (v[0] + v[1] + v[2])
           : i == 2u ? 0.5 * (v[0] - v[1] + v[2])
                     : v[2];
  }
  // A = [1 0; 1 1; 1 -1; 0 -1]
  return i == 0u ? v[0] : i == 1u ? v[0] + v[1] : i == 2u ? v[0] - v[1] : -v[1];
}

void main() {
  const uint tiles = p.tiles_h * p.tiles_w;
  const uint units = p.p0n * p.p1n * tiles;  // the host keeps every index below 2^32
  for (uint u = global_index(); u < units; u += grid_stride()) {
    const uint t = u % tiles, p1 = (u / tiles) % p.p1n, p0 = u / (tiles * p.p1n);
    const int y0 = int((t / p.tiles_w) * p.step) - p.pad_h;
    const int x0 = int((t % p.tiles_w) * p.step) - p.pad_w;
    const uint base = (p.p0_begin + p0) * p.src_p0 + (p.p1_begin + p1) * p.src_p1;
    // L P: 4 rows of R columns.
    float lp[4][4];
    [[unroll]] for (uint j = 0; j < R; ++j) {
      float col[4] = float[4](0.0, 0.0, 0.0, 0.0);
      const int x = x0 + int(j);
      [[unroll]] for (uint i = 0; i < R; ++i) {
        const int y = y0 + int(i);
        if (y >= 0 && uint(y) < p.h && x >= 0 && uint(x) < p.w) {
          col[i] = src.v[base + uint(y) * p.w + uint(x)];
        }
      }
      [[unroll]] for (uint i = 0; i < 4; ++i) lp[i][j] = row(i, col);
    }
    // (L P) L^T, stored point by point.
    const uint at = p0 * p.dst_p0 + p1 * p.dst_p1 + t * p.dst_t;
    [[unroll]] for (uint i = 0; i < 4; ++i) {
      float r[4] = float[4](lp[i][0], R > 1u ? lp[i][1] : 0.0, R > 2u ? lp[i][2] : 0.0,
                            R > 3u ? lp[i][3] : 0.0);
      [[unroll]] for (uint j = 0; j < 4; ++j) dst.v[(i * 4u + j) * p.xi_stride + at] = row(j, r);
    }
  }
}
