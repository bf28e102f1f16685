#version 450
// One pass of the segmented LSD radix sort (src/vulkan/ops/sort.cpp) on 4-bit digits. Lines are
// cut into tiles of TILE items, no tile spanning two lines; a workgroup ranks its tile.
//   PHASE_COUNT: the tile's digit counts to hist[(line * 16 + digit) * tiles_per_line + tile]
//     (an exclusive scan of that whole array then gives every (tile, digit) its first
//     output position: lines before, smaller digits of the line, earlier tiles).
//   PHASE_SCATTER: every item moves to offsets[...] + its rank among the tile's items of
//     that digit. Invocation t owns the tile's items [t * ITEMS, t * ITEMS + ITEMS), and
//     ranks come from a scan over [digit][invocation], so equal digits keep their order:
//     each pass is stable, hence the sort is by (key, index).
#include "common.glsl"
#include "sort_scan.glsl"

layout(constant_id = 1) const uint PHASE = 0;
layout(constant_id = 2) const uint KEY_WORDS = 1;
const uint PHASE_COUNT = 0, PHASE_SCATTER = 1;

#define ITEMS 16
#define DIGITS 16u
const uint TILE = ITEMS * gl_WorkGroupSize.x;

layout(binding = 0) readonly buffer KeysIn { uint v[]; } keys_in;
layout(binding = 1) readonly buffer ValsIn { uint v[]; } vals_in;
layout(binding = 2) buffer Hist { uint v[]; } hist;
layout(binding = 3) writeonly buffer KeysOut { uint v[]; } keys_out;
layout(binding = 4) writeonly buffer ValsOut { uint v[]; } vals_out;
layout(push_constant) uniform Push { uint lines, len, tiles_per_line, shift; } p;

shared uint counts[DIGITS * gl_WorkGroupSize.x];  // [digit][invocation]
shared uint digit_start[DIGITS + 1u];

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (group >= p.lines * p.tiles_per_line) return;  // whole workgroups of a 2-D grid's excess
  const uint lid = gl_LocalInvocationID.x, threads = gl_WorkGroupSize.x;
  const uint line = group / p.tiles_per_line, tile = group % p.tiles_per_line;
  const uint line_begin = line * p.len;
  const uint begin = line_begin + tile * TILE;
  const uint end = min(begin + TILE, line_begin + p.len);
  const uint first = begin + lid * ITEMS;
  const uint word = p.shift >> 5, bit = p.shift & 31u;
  for (uint d = 0u; d < DIGITS; ++d) counts[d * threads + lid] = 0u;
  uint digit[ITEMS];
  for (uint i = 0u; i < ITEMS; ++i) {
    const uint e = first + i;
    digit[i] = DIGITS;  // no item
    if (e < end) {
      digit[i] = (keys_in.v[e * KEY_WORDS + word] >> bit) & (DIGITS - 1u);
      ++counts[digit[i] * threads + lid];
    }
  }
  barrier();
  // Exclusive scan of counts in [digit][invocation] order: invocation t scans 16 entries.
  uint run[DIGITS];
  uint sum = 0u;
  for (uint i = 0u; i < DIGITS; ++i) {
    run[i] = counts[lid * DIGITS + i];
    sum += run[i];
  }
  uint prefix = workgroup_exclusive_scan(sum);
  for (uint i = 0u; i < DIGITS; ++i) {
    counts[lid * DIGITS + i] = prefix;
    prefix += run[i];
  }
  barrier();
  if (lid < DIGITS) digit_start[lid] = counts[lid * threads];
  if (lid == 0u) digit_start[DIGITS] = end - begin;
  barrier();
  if (PHASE == PHASE_COUNT) {
    if (lid < DIGITS) {
      hist.v[(line * DIGITS + lid) * p.tiles_per_line + tile] =
          digit_start[lid + 1u] - digit_start[lid];
    }
    return;
  }
  for (uint i = 0u; i < ITEMS; ++i) {
    const uint d = digit[i];
    if (d == DIGITS) continue;
    const uint e = first + i;
    const uint rank = counts[d * threads + lid] - digit_start[d];
    ++counts[d * threads + lid];
    const uint pos = hist.v[(line * DIGITS + d) * p.tiles_per_line + tile] + rank;
    for (uint w = 0u; w < KEY_WORDS; ++w) keys_out.v[pos * KEY_WORDS + w] = keys_in.v[e * KEY_WORDS + w];
    vals_out.v[pos] = vals_in.v[e];
  }
}
