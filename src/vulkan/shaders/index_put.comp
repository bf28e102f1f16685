#version 450
#extension GL_EXT_control_flow_attributes : require
// indexed_put in one pass, where the rows are few (at most MAX_ROWS) and each row's elements
// are one contiguous run of t (index.cpp): every invocation copies 16-byte words of t to the
// output and puts into each word the elements of the rows that land on it, rows in order, so
// the last of duplicate rows wins as in the cpu's loop; a row with an out-of-range index is
// skipped. No copy before it and no barrier between (index_update.comp's path needs both);
// the bits move unchanged.
#include "common.glsl"
#include "movement_word.glsl"

layout(binding = 0) readonly buffer Src { WORD v[]; } src;
layout(binding = 0) readonly buffer Src4 { uvec4 v[]; } src4;
layout(binding = 1) readonly buffer Indices { uint v[]; } indices;  // s64 as (lo, hi) pairs
layout(binding = 2) readonly buffer Updates { WORD v[]; } upd;
layout(binding = 3) writeonly buffer Dst { WORD v[]; } dst;
layout(binding = 3) writeonly buffer Dst4 { uvec4 v[]; } dst4;

// n: t's elements; m rows of k indices, each addressing an indexed axis (ax_dim, ax_stride);
// rest: the elements of one row (one contiguous run from the row's first element).
layout(push_constant) uniform Push {
  uint n, m, k, rest;
  uint ax_dim[MAX_RANK];
  uint ax_stride[MAX_RANK];
} p;

// The host's bound on m (kFusedPutRows): the rows' first elements stay in registers.
const uint MAX_ROWS = 8u;
const uint PER_WORD = 16u / WIDTH;
const uint NO_ROW = 0xffffffffu;

// Row i's first element of t, or NO_ROW where one of its indices is out of range.
uint row_base(uint i) {
  uint base = 0u;
  for (uint j = 0u; j < p.k; ++j) {
    const uint w = 2u * (i * p.k + j);
    if (!index_in_range(indices.v[w], indices.v[w + 1u], p.ax_dim[j])) return NO_ROW;
    base += indices.v[w] * p.ax_stride[j];
  }
  return base;
}

// w with element `lane` (of PER_WORD) replaced by v.
uvec4 with_lane(uvec4 w, uint lane, REG v) {
#if WIDTH == 16
  return v;
#elif WIDTH == 8
  return lane == 0u ? uvec4(v, w.zw) : uvec4(w.xy, v);
#elif WIDTH == 4
  w[lane] = v;
  return w;
#else
  const uint per = 4u / WIDTH, c = lane / per, shift = (lane % per) * 8u * WIDTH;
  const uint mask = ((1u << (8u * WIDTH)) - 1u) << shift;
  w[c] = (w[c] & ~mask) | (v << shift);
  return w;
#endif
}

void main() {
  const uint stride = grid_stride(), id = global_index();
  uint base[MAX_ROWS];
  const uint words = p.n / PER_WORD;
  // An invocation's words (four for the host's grid, grid_stride_threads) all loaded before
  // any is patched and stored: one memory round trip for them, not one each (a load, patch,
  // store loop ran the H200's 64M put well below a copy's rate).
  for (uint j0 = id; j0 < words; j0 += 4u * stride) {
    uvec4 w[4];
    [[unroll]] for (uint q = 0u; q < 4u; ++q) {
      const uint j = j0 + q * stride;
      if (j < words) w[q] = src4.v[j];
    }
    // The rows' places after the words' loads, so both round trips overlap. Every loop over
    // the rows is unrolled: base[] indexed by a variable would live in local memory.
    [[unroll]] for (uint i = 0u; i < MAX_ROWS; ++i) base[i] = i < p.m ? row_base(i) : NO_ROW;
    [[unroll]] for (uint q = 0u; q < 4u; ++q) {
      const uint j = j0 + q * stride;
      if (j >= words) break;
      const uint first = j * PER_WORD, last = first + PER_WORD;
      [[unroll]] for (uint i = 0u; i < MAX_ROWS; ++i) {
        // NO_ROW passes every word's end, so the second test never sees it.
        if (base[i] >= last || base[i] + p.rest <= first) continue;
        const uint hi = min(base[i] + p.rest, last);
        for (uint e = max(base[i], first); e < hi; ++e) {
          w[q] = with_lane(w[q], e - first, TO_REG(upd.v[i * p.rest + e - base[i]]));
        }
      }
      dst4.v[j] = w[q];
    }
  }
  // The last n % PER_WORD elements one by one.
  if (words * PER_WORD + id < p.n) {
    [[unroll]] for (uint i = 0u; i < MAX_ROWS; ++i) base[i] = i < p.m ? row_base(i) : NO_ROW;
  }
  for (uint e = words * PER_WORD + id; e < p.n; e += stride) {
    REG v = TO_REG(src.v[e]);
    [[unroll]] for (uint i = 0u; i < MAX_ROWS; ++i) {
      if (base[i] <= e && e - base[i] < p.rest) v = TO_REG(upd.v[i * p.rest + e - base[i]]);
    }
    dst.v[e] = TO_WORD(v);
  }
}
