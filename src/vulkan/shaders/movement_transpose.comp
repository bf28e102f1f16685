#version 450
// Batched 2-D transpose {batch, rows, cols} -> {batch, cols, rows} through a 32x33 shared
// tile: reads and writes are both row-contiguous. One workgroup (256 invocations) per tile;
// each invocation moves 4 elements. Shared memory holds 32-bit words (or uvec2), which need
// no 8/16-bit workgroup-memory feature.
#include "common.glsl"
#include "movement_word.glsl"

#if WIDTH == 8
#define TILE_WORD uvec2
#else
#define TILE_WORD uint
#endif

const uint TILE = 32u;
layout(binding = 0) readonly buffer Src { WORD v[]; } src;
layout(binding = 1) writeonly buffer Dst { WORD v[]; } dst;
layout(push_constant) uniform Push { uint batch, rows, cols, tiles_r, tiles_c; } p;

shared TILE_WORD tile[TILE * (TILE + 1u)];

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint per_batch = p.tiles_r * p.tiles_c;
  if (group >= p.batch * per_batch) return;  // uniform per workgroup: no barrier is skipped
  const uint b = group / per_batch;
  const uint r0 = ((group % per_batch) / p.tiles_c) * TILE;
  const uint c0 = (group % p.tiles_c) * TILE;
  const uint tx = gl_LocalInvocationID.x % TILE, ty = gl_LocalInvocationID.x / TILE;
  const uint ystep = gl_WorkGroupSize.x / TILE;
  const uint base = b * p.rows * p.cols;
  for (uint y = ty; y < TILE; y += ystep) {
    const uint r = r0 + y, c = c0 + tx;
    if (r < p.rows && c < p.cols) {
#if WIDTH == 8
      tile[y * (TILE + 1u) + tx] = src.v[base + r * p.cols + c];
#else
      tile[y * (TILE + 1u) + tx] = uint(src.v[base + r * p.cols + c]);
#endif
    }
  }
  barrier();
  for (uint y = ty; y < TILE; y += ystep) {
    const uint c = c0 + y, r = r0 + tx;  // output row c, column r
    if (r < p.rows && c < p.cols) dst.v[base + c * p.rows + r] = WORD(tile[tx * (TILE + 1u) + y]);
  }
}
