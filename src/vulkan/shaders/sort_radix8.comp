#version 450
// One pass of the segmented LSD radix sort (src/vulkan/ops/sort.cpp) on 8-bit digits. Lines are
// cut into tiles of TILE items, no tile spanning two lines; a workgroup handles one tile.
//   PHASE_COUNT: the tile's 256 digit counts (shared atomics: order does not matter) to
//     hist[(line * 256 + digit) * tiles_per_line + tile]; the exclusive scan of that array
//     then gives every (tile, digit) its first output position.
//   PHASE_SCATTER: every item moves to that position + its rank among the tile's items of
//     its digit, in index order (so each pass is stable, hence the sort is by (key, index)).
//     Subgroup s owns a contiguous chunk of the tile and walks it in rounds of one item per
//     lane; eight ballots give each lane the lanes of its round with the same digit, and
//     per-subgroup counters carry the ranks across rounds; a scan over subgroups joins them.
//     A tile whose items all share one digit is copied in order without ranking.
//     REORDER: items are first placed in shared memory in their sorted order within the tile
//     (a word at a time), so each store to memory is a run of consecutive positions per digit
//     rather than up to one 32-byte sector per lane; else each item is stored from its lane.
// Needs subgroup ballots and votes (the host takes 4-bit digits, sort_radix.comp, without).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#include "common.glsl"
#include "sort_scan.glsl"

layout(constant_id = 1) const uint PHASE = 0;
layout(constant_id = 2) const uint KEY_WORDS = 1;
// Workgroup size / the device's subgroup size: how many subgroups' counters to hold.
layout(constant_id = 3) const uint MAX_SUBGROUPS = 8;
layout(constant_id = 4) const bool REORDER = true;
const uint PHASE_COUNT = 0, PHASE_SCATTER = 1;

#define ITEMS 16u
#define DIGITS 256u
// The workgroup is DIGITS invocations (the host's 256): invocation d scans digit d.
const uint TILE = ITEMS * gl_WorkGroupSize.x;
const uint WORDS_PER_SUBGROUP = DIGITS / 2u;  // two 16-bit counters a word (a tile < 65536)
const uint COUNTER_WORDS = MAX_SUBGROUPS * WORDS_PER_SUBGROUP;
const uint SCRATCH_WORDS = COUNTER_WORDS > TILE ? COUNTER_WORDS : TILE;

layout(binding = 0) readonly buffer KeysIn { uint v[]; } keys_in;
layout(binding = 1) readonly buffer ValsIn { uint v[]; } vals_in;
layout(binding = 2) buffer Hist { uint v[]; } hist;
layout(binding = 3) writeonly buffer KeysOut { uint v[]; } keys_out;
layout(binding = 4) writeonly buffer ValsOut { uint v[]; } vals_out;
layout(push_constant) uniform Push { uint lines, len, tiles_per_line, shift; } p;

shared uint bins[DIGITS];  // count: the tile's counts; scatter: each digit's first position
// The per-subgroup counters [subgroup][digit / 2] while ranking, then the staged tile.
shared uint scratch[SCRATCH_WORDS];
shared uint tile_start[DIGITS];  // the tile's first item of each digit, within the tile
shared uint uniform_digit;  // the digit of every item of the tile, or DIGITS

uint digit_of(uint lo, uint hi) {
  const uint word = KEY_WORDS == 2u && p.shift >= 32u ? hi : lo;
  return (word >> (p.shift & 31u)) & (DIGITS - 1u);
}

uint bit_count4(uvec4 m) {
  return bitCount(m.x) + bitCount(m.y) + bitCount(m.z) + bitCount(m.w);
}

void copy_item(uint from, uint to) {
  for (uint w = 0u; w < KEY_WORDS; ++w) keys_out.v[to * KEY_WORDS + w] = keys_in.v[from * KEY_WORDS + w];
  vals_out.v[to] = vals_in.v[from];
}

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (group >= p.lines * p.tiles_per_line) return;  // whole workgroups of a 2-D grid's excess
  const uint lid = gl_LocalInvocationID.x, threads = gl_WorkGroupSize.x;
  const uint line = group / p.tiles_per_line, tile = group % p.tiles_per_line;
  const uint line_begin = line * p.len;
  const uint begin = line_begin + tile * TILE;
  const uint end = min(begin + TILE, line_begin + p.len);
  const uint hist_base = line * DIGITS * p.tiles_per_line + tile;  // + digit * tiles_per_line

  if (PHASE == PHASE_COUNT) {
    for (uint d = lid; d < DIGITS; d += threads) bins[d] = 0u;
    barrier();
    for (uint i = 0u; i < ITEMS; ++i) {
      const uint e = begin + i * threads + lid;  // coalesced
      const bool valid = e < end;
      const uint lo = valid ? keys_in.v[e * KEY_WORDS] : 0u;
      const uint hi = valid && KEY_WORDS == 2u ? keys_in.v[e * KEY_WORDS + 1u] : 0u;
      const uint d = valid ? digit_of(lo, hi) : DIGITS;
      // A subgroup whose items share one digit adds them at once: sorted or narrow data
      // would otherwise queue every lane on one shared counter.
      if (subgroupAllEqual(d)) {
        if (subgroupElect() && d < DIGITS) atomicAdd(bins[d], gl_SubgroupSize);
      } else if (valid) {
        atomicAdd(bins[d], 1u);
      }
    }
    barrier();
    for (uint d = lid; d < DIGITS; d += threads) hist.v[hist_base + d * p.tiles_per_line] = bins[d];
    return;
  }

  // The scanned histogram: entry h starts (digit, tile); entry h + 1 (or the end of the
  // data) starts the next one, so their difference is the tile's count of that digit.
  const uint hist_size = p.lines * p.tiles_per_line * DIGITS, total = p.lines * p.len;
  for (uint w = lid; w < COUNTER_WORDS; w += threads) scratch[w] = 0u;
  if (lid == 0u) uniform_digit = DIGITS;
  barrier();
  for (uint d = lid; d < DIGITS; d += threads) {
    const uint h = hist_base + d * p.tiles_per_line;
    bins[d] = hist.v[h];
    const uint next = h + 1u < hist_size ? hist.v[h + 1u] : total;
    tile_start[d] = next - bins[d];
    if (next - bins[d] == end - begin) uniform_digit = d;  // at most one digit: end > begin
  }
  barrier();
  if (REORDER) {
    const uint tile_count = lid < DIGITS ? tile_start[lid] : 0u;
    const uint tile_prefix = workgroup_exclusive_scan(tile_count);  // holds barriers
    if (lid < DIGITS) tile_start[lid] = tile_prefix;
  }
  if (uniform_digit != DIGITS) {
    const uint first = bins[uniform_digit];
    for (uint i = 0u; i < ITEMS; ++i) {
      const uint e = begin + i * threads + lid;
      if (e < end) copy_item(e, first + (e - begin));
    }
    return;
  }

  const uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID, width = gl_SubgroupSize;
  const uint chunk = begin + sg * ITEMS * width;  // this subgroup's first item
  uint lo[ITEMS], hi[ITEMS], rank[ITEMS];
  for (uint r = 0u; r < ITEMS; ++r) {
    const uint e = chunk + r * width + lane;
    const bool valid = e < end;
    lo[r] = valid ? keys_in.v[e * KEY_WORDS] : 0u;
    hi[r] = valid && KEY_WORDS == 2u ? keys_in.v[e * KEY_WORDS + 1u] : 0u;
    const uint d = digit_of(lo[r], hi[r]);
    uvec4 peers = subgroupBallot(valid);  // the round's lanes with this lane's digit
    for (uint b = 0u; b < 8u; ++b) {
      const bool set = ((d >> b) & 1u) != 0u;
      const uvec4 voted = subgroupBallot(set);
      peers &= set ? voted : ~voted;
    }
    const uint word = sg * WORDS_PER_SUBGROUP + (d >> 1u), half_shift = (d & 1u) * 16u;
    const uint before = (scratch[word] >> half_shift) & 0xffffu;
    const uint below = bit_count4(peers & gl_SubgroupLtMask);
    subgroupMemoryBarrierShared();
    subgroupBarrier();  // every lane has read the counters before they grow
    // The digit's lowest lane adds the round's count (atomic: two digits share a word).
    if (valid && below == 0u) atomicAdd(scratch[word], bit_count4(peers) << half_shift);
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    rank[r] = before + below;
  }
  barrier();
  // Each word's two counters become their exclusive prefix over the subgroups before
  // (both halves at once: no half passes 65535).
  for (uint w = lid; w < WORDS_PER_SUBGROUP; w += threads) {
    uint run = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
      const uint c = scratch[s * WORDS_PER_SUBGROUP + w];
      scratch[s * WORDS_PER_SUBGROUP + w] = run;
      run += c;
    }
  }
  barrier();
  // Each item's rank among the tile's items of its digit.
  for (uint r = 0u; r < ITEMS; ++r) {
    const uint d = digit_of(lo[r], hi[r]);
    rank[r] += (scratch[sg * WORDS_PER_SUBGROUP + (d >> 1u)] >> ((d & 1u) * 16u)) & 0xffffu;
  }
  if (!REORDER) {
    for (uint r = 0u; r < ITEMS; ++r) {
      const uint e = chunk + r * width + lane;
      if (e >= end) continue;
      const uint pos = bins[digit_of(lo[r], hi[r])] + rank[r];
      keys_out.v[pos * KEY_WORDS] = lo[r];
      if (KEY_WORDS == 2u) keys_out.v[pos * KEY_WORDS + 1u] = hi[r];
      vals_out.v[pos] = vals_in.v[e];
    }
    return;
  }
  // Staged a word at a time: first the word that holds the digit, whose reader then knows
  // the item's position; then the other key word; then the values.
  const bool digit_in_hi = KEY_WORDS == 2u && p.shift >= 32u;
  const uint count = end - begin;
  uint dest[ITEMS];
  for (uint stage = 0u; stage < KEY_WORDS + 1u; ++stage) {
    barrier();  // the counters, or the stage before, are read
    for (uint r = 0u; r < ITEMS; ++r) {
      const uint e = chunk + r * width + lane;
      if (e >= end) continue;
      const bool high = stage == 0u ? digit_in_hi : !digit_in_hi;
      scratch[tile_start[digit_of(lo[r], hi[r])] + rank[r]] = stage == KEY_WORDS ? vals_in.v[e] : high ? hi[r] : lo[r];
    }
    barrier();
    for (uint k = 0u; k < ITEMS; ++k) {
      const uint j = k * threads + lid;  // the tile's j-th item in sorted order
      if (j >= count) continue;
      const uint w = scratch[j];
      if (stage == 0u) {
        const uint d = (w >> (p.shift & 31u)) & (DIGITS - 1u);
        dest[k] = bins[d] + j - tile_start[d];
      }
      if (stage == KEY_WORDS) {
        vals_out.v[dest[k]] = w;
      } else {
        const bool high = stage == 0u ? digit_in_hi : !digit_in_hi;
        keys_out.v[dest[k] * KEY_WORDS + (high ? 1u : 0u)] = w;
      }
    }
  }
}
