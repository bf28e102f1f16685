#version 450
// top_k by selection (src/vulkan/ops/sort_select.cpp): a workgroup keeps the K2 first items
// (key, index) of a segment — a tile of one line, or each of several short lines — where K2 is
// the power of two >= k, and emits the first k: the final s64 indices, or (key, index)
// candidates that the next dispatch selects from. Items compare as sort_local.comp's do
// (sort_key.glsl's descending keys, then the index: a total order), so the result is the
// cpu's stable one, bit for bit.
//   The reduction (select_first): runs of K2 items are sorted by a bitonic network; then, per
//   round, run A takes min(A[i], B[K2-1-i]) with its neighbour B (a bitonic sequence holding
//   the K2 first of both), re-sorted in log2(K2) steps, until one run per segment is left.
//   Chosen over a full sort: log2(K2)(log2(K2)+1)/2 steps on every item and log2(K2)+1 on a
//   halving share, instead of log2(P)(log2(P)+1)/2 on every item.
//   A tile longer than CAP: its first and last CAP / 2 items are reduced, then the rest
//   streams in chunks of CAP / 2; an item enters the buffer only if it comes before the K2-th
//   item held (the threshold), and the buffer is reduced again when it may not take another
//   chunk. After the first fill few items pass (on shuffled data about K2 / items seen; on
//   data in order, ascending or descending, none: the ends hold the best), so most of a tile
//   costs a read and a comparison. Data in the worst order reduces every chunk.
#include "common.glsl"
#define SRC_BINDING 0
#include "sort_key.glsl"

layout(constant_id = 3) const bool FROM_CANDIDATES = false;  // binding 0: candidate words
layout(constant_id = 4) const bool TO_CANDIDATES = false;    // binding 1: candidate words
layout(constant_id = 5) const uint CAP = 2048;  // items a workgroup holds, a power of two
layout(constant_id = 6) const uint HI_CAP = 1;  // CAP for 64-bit keys, else 1

const uint KEY_WORDS = ELEM_BITS == 64u ? 2u : 1u;
const uint WORDS = KEY_WORDS + 1u;  // a candidate: key words, then its index in the line
const uint CHUNK = CAP / 2u;

layout(binding = 1) writeonly buffer Dst { uint v[]; } dst;
// len: the input line's length (elements or candidates); segments of tile_len items, `tiles`
// a line, each held in p = 2^log2_p slots, CAP / p segments a workgroup.
layout(push_constant) uniform Push {
  uint lines, len, tiles, tile_len, k, k2, log2_k2, p, log2_p;
} pc;

shared uint key_lo[CAP];
shared uint key_hi[HI_CAP];
shared uint index_of[CAP];
shared uint fill;  // items held while a tile streams

uvec2 key_at(uint i) { return uvec2(key_lo[i], KEY_WORDS == 2u ? key_hi[i] : 0u); }

bool less(uvec2 kb, uint ib, uvec2 ka, uint ia) {
  if (kb.y != ka.y) return kb.y < ka.y;
  if (kb.x != ka.x) return kb.x < ka.x;
  return ib < ia;
}

// Does item b come before item a?
bool before(uint b, uint a) { return less(key_at(b), index_of[b], key_at(a), index_of[a]); }

void put(uint i, uvec2 key, uint index) {
  key_lo[i] = key.x;
  if (KEY_WORDS == 2u) key_hi[i] = key.y;
  index_of[i] = index;
}

void put_padding(uint i) { put(i, uvec2(~0u), ~0u); }  // after every real item

void swap_items(uint i, uint j) {
  const uvec2 key = key_at(i);
  const uint index = index_of[i];
  put(i, key_at(j), index_of[j]);
  put(j, key, index);
}

// Item j of input line `row`.
void load_item(uint row, uint j, out uvec2 key, out uint index) {
  if (FROM_CANDIDATES) {
    const uint c = (row * pc.len + j) * WORDS;
    key = uvec2(src_u32.v[c], KEY_WORDS == 2u ? src_u32.v[c + 1u] : 0u);
    index = src_u32.v[c + KEY_WORDS];
  } else {
    key = sort_key(row * pc.len + j);  // top_k's axis is the last: lines are contiguous
    index = j;
  }
}

// Slots [0, n) hold n / 2^log2_p segments of 2^log2_p items each (powers of two, >= K2):
// afterwards each segment's first K2 slots hold its K2 first items in order. Every
// invocation calls it (barriers); it ends with one.
void select_first(uint n, uint log2_p) {
  const uint lid = gl_LocalInvocationID.x, threads = gl_WorkGroupSize.x;
  const uint k2 = pc.k2, half_k2 = pc.k2 >> 1u;
  // Runs of K2 sorted: smaller bitonic blocks alternate direction, each run ends ascending.
  for (uint size = 2u; size <= k2; size <<= 1u) {
    for (uint stride = size >> 1u; stride > 0u; stride >>= 1u) {
      for (uint pair = lid; pair < n / 2u; pair += threads) {
        const uint i = ((pair & ~(stride - 1u)) << 1u) | (pair & (stride - 1u));
        const uint partner = i | stride;
        const bool up = size == k2 || (i & size) == 0u;
        if (up ? before(partner, i) : before(i, partner)) swap_items(i, partner);
      }
      barrier();
    }
  }
  // Rounds: the runs at multiples of 2 * gap take the first K2 of themselves and the run gap
  // after, in place (each slot of A is written by the invocation that reads it and its B).
  for (uint gap = k2; gap < (1u << log2_p); gap <<= 1u) {
    const uint runs = n / (2u * gap);
    for (uint t = lid; t < runs * k2; t += threads) {
      const uint base = (t >> pc.log2_k2) * 2u * gap, i = t & (k2 - 1u);
      const uint a = base + i, b = base + gap + (k2 - 1u - i);
      if (before(b, a)) put(a, key_at(b), index_of[b]);
    }
    barrier();
    for (uint stride = half_k2; stride > 0u; stride >>= 1u) {
      for (uint pair = lid; pair < runs * half_k2; pair += threads) {
        const uint q = pair & (half_k2 - 1u);
        const uint i = (pair / half_k2) * 2u * gap + (((q & ~(stride - 1u)) << 1u) | (q & (stride - 1u)));
        if (before(i | stride, i)) swap_items(i, i | stride);
      }
      barrier();
    }
  }
}

// Slots [0, held) (held > K2, the first K2 in order) reduced to the K2 first; fill back to K2.
void reduce_held(uint held) {
  const uint log2_n = findMSB(held - 1u) + 1u;
  for (uint i = held + gl_LocalInvocationID.x; i < (1u << log2_n); i += gl_WorkGroupSize.x) {
    put_padding(i);
  }
  barrier();
  select_first(1u << log2_n, log2_n);
  if (gl_LocalInvocationID.x == 0u) fill = pc.k2;  // every read of fill came before its barriers
}

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint per_group = CAP >> pc.log2_p;
  const uint segments = pc.lines * pc.tiles, first = group * per_group;
  if (first >= segments) return;  // whole workgroups of a 2-D grid's excess
  const uint lid = gl_LocalInvocationID.x, threads = gl_WorkGroupSize.x;
  // The first fill: slot i holds item i % p of segment first + i / p; a segment longer than
  // CAP (then p == CAP) gives its first and its last CAP / 2 items.
  for (uint i = lid; i < CAP; i += threads) {
    const uint s = first + (i >> pc.log2_p), local = i & (pc.p - 1u);
    const uint begin = (s % pc.tiles) * pc.tile_len;
    const uint count = s < segments ? min(pc.tile_len, pc.len - begin) : 0u;
    if (local < count) {
      uvec2 key;
      uint index;
      const uint j = count > CAP && local >= CHUNK ? begin + count - CAP + local : begin + local;
      load_item(s / pc.tiles, j, key, index);
      put(i, key, index);
    } else {
      put_padding(i);
    }
  }
  barrier();
  select_first(CAP, pc.log2_p);
  const uint begin = (first % pc.tiles) * pc.tile_len;
  const uint count = min(pc.tile_len, pc.len - begin);
  if (count > CAP) {  // one segment a workgroup: the items between its ends stream
    const uint row = first / pc.tiles, middle = begin + CHUNK, middle_len = count - CAP;
    const uint chunks = (middle_len + CHUNK - 1u) / CHUNK;
    const uint log2_r = chunks == 1u ? 0u : findMSB(chunks - 1u) + 1u;
    if (lid == 0u) fill = pc.k2;
    uvec2 limit_key = key_at(pc.k2 - 1u);
    uint limit_index = index_of[pc.k2 - 1u];
    // Chunks in bit-reversed order: on data in order (either way) the chunk holding the best
    // items comes within log2(chunks) chunks, not last.
    for (uint v = 0u; v < (1u << log2_r); ++v) {
      const uint c = log2_r == 0u ? 0u : bitfieldReverse(v) >> (32u - log2_r);
      if (c >= chunks) continue;  // uniform
      barrier();  // fill is set, and every invocation has its threshold
      const uint base = middle + c * CHUNK, size = min(CHUNK, middle_len - c * CHUNK);
      for (uint t = lid; t < size; t += threads) {
        uvec2 key;
        uint index;
        load_item(row, base + t, key, index);
        if (less(key, index, limit_key, limit_index)) put(atomicAdd(fill, 1u), key, index);
      }
      barrier();
      const uint held = fill;
      barrier();  // every invocation has read fill before it changes
      if (held > CAP - CHUNK) {  // another chunk might not fit
        reduce_held(held);
        limit_key = key_at(pc.k2 - 1u);
        limit_index = index_of[pc.k2 - 1u];
      }
    }
    barrier();
    const uint held = fill;
    if (held > pc.k2) reduce_held(held);
  }
  // Segment s's first k items.
  for (uint t = lid; t < per_group * pc.k; t += threads) {
    const uint s = first + t / pc.k, j = t % pc.k;
    if (s >= segments) break;
    const uint from = ((s - first) << pc.log2_p) + j, o = s * pc.k + j;
    if (TO_CANDIDATES) {
      dst.v[o * WORDS] = key_lo[from];
      if (KEY_WORDS == 2u) dst.v[o * WORDS + 1u] = key_hi[from];
      dst.v[o * WORDS + KEY_WORDS] = index_of[from];
    } else {
      dst.v[2u * o] = index_of[from];  // s64 indices: tiles == 1, so s is the line
      dst.v[2u * o + 1u] = 0u;
    }
  }
}
