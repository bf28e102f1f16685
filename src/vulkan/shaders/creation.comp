#version 450
// full / iota / eye. OP (specialization constant): 0 full, 1 iota, 2 eye.
// full writes 32-bit words of a host-made bit pattern (lo, hi alternate for 8-byte
// dtypes), so it needs no typed view; iota and eye convert an integer count to DTYPE.
#include "common.glsl"
#include "dtype_value.glsl"

layout(constant_id = 1) const uint OP = 0;
layout(constant_id = 2) const uint DTYPE = 10;

layout(binding = 0) writeonly buffer DstWords { uint v[]; } dst_words;
#define DST_BINDING 0
#include "dtype_store.glsl"

// n: threads (words for full, elements otherwise); iota counts (i / inner) % dim;
// eye: element i is at row (i / cols) % rows, column i % cols.
layout(push_constant) uniform Push { uint n, inner, dim, rows, cols, lo, hi; } p;

void creation_element(uint i) {
  if (OP == 0) {
    dst_words.v[i] = (i & 1u) == 0u ? p.lo : p.hi;
  } else if (OP == 1) {
    store_value(DTYPE, i, int_value(IWIDE((i / p.inner) % p.dim), false));
  } else {
    const bool diagonal = (i / p.cols) % p.rows == i % p.cols;
    store_value(DTYPE, i, int_value(IWIDE(diagonal ? 1 : 0), false));
  }
}

void main() {
  for (uint i = global_index(); i < p.n; i += grid_stride()) creation_element(i);
}
