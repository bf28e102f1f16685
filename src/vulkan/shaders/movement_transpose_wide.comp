#version 450
// Batched 2-D transpose {batch, rows, cols} -> {batch, cols, rows} of 4-byte words with
// 16-byte loads and stores (rows and cols multiples of 4, so every quad is whole and
// aligned): a 64x65 shared tile per workgroup of 256 invocations, each loading four quads
// of input rows (all four in flight) and storing four quads of output rows gathered from
// tile columns. The one-word padding leaves at most 2-way bank conflicts either way. The
// host takes it where maxComputeSharedMemorySize holds the tile (movement.cpp).
#include "common.glsl"

const uint TILE = 64u, QUADS = TILE / 4u, PITCH = TILE + 1u;
const uint STEP = 16u;  // rows per pass: 256 invocations / QUADS
layout(binding = 0) readonly buffer Src { uvec4 v[]; } src;
layout(binding = 1) writeonly buffer Dst { uvec4 v[]; } dst;
layout(push_constant) uniform Push { uint batch, rows, cols, tiles_r, tiles_c; } p;

shared uint tile[TILE * PITCH];

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint per_batch = p.tiles_r * p.tiles_c;
  if (group >= p.batch * per_batch) return;  // uniform per workgroup: no barrier is skipped
  const uint b = group / per_batch;
  const uint r0 = ((group % per_batch) / p.tiles_c) * TILE;
  const uint c0 = (group % p.tiles_c) * TILE;
  const uint q = gl_LocalInvocationID.x % QUADS, y0 = gl_LocalInvocationID.x / QUADS;
  const uint base = b * p.rows * p.cols;
  uvec4 w[4];
  for (uint k = 0u; k < 4u; ++k) {
    const uint r = r0 + y0 + k * STEP, c = c0 + 4u * q;
    w[k] = uvec4(0u);
    if (r < p.rows && c < p.cols) w[k] = src.v[(base + r * p.cols + c) / 4u];
  }
  for (uint k = 0u; k < 4u; ++k) {
    const uint y = y0 + k * STEP;
    for (uint j = 0u; j < 4u; ++j) tile[y * PITCH + 4u * q + j] = w[k][j];
  }
  barrier();
  for (uint k = 0u; k < 4u; ++k) {
    const uint x = y0 + k * STEP;  // tile column x: output row c0 + x, columns r0 + 4q ..
    const uint c = c0 + x, r = r0 + 4u * q;
    if (c < p.cols && r < p.rows) {
      const uint t = 4u * q * PITCH + x;
      dst.v[(base + c * p.rows + r) / 4u] =
          uvec4(tile[t], tile[t + PITCH], tile[t + 2u * PITCH], tile[t + 3u * PITCH]);
    }
  }
}
