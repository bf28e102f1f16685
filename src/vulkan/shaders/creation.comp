#version 450
// full / iota / eye. OP (specialization constant): 0 full, 1 iota, 2 eye.
// full writes 32-bit words of a host-made bit pattern (word i takes pattern[i % 4]), so it
// needs no typed view; iota and eye convert an integer count to DTYPE, and for a complex
// output (COMPLEX: DTYPE is its parts' type) store it as the real part, imaginary 0.
#include "common.glsl"
#include "dtype_value.glsl"

layout(constant_id = 1) const uint OP = 0;
layout(constant_id = 2) const uint DTYPE = 10;
layout(constant_id = 3) const bool COMPLEX = false;

layout(binding = 0) writeonly buffer DstWords { uint v[]; } dst_words;
#define DST_BINDING 0
#include "dtype_store.glsl"

// n: threads (words for full, elements otherwise); iota counts (i / inner) % dim;
// eye: element i is at row (i / cols) % rows, column i % cols.
layout(push_constant) uniform Push { uint n, inner, dim, rows, cols, pattern[4]; } p;

void store_element(uint i, Value v) {
  if (COMPLEX) {
    store_value(DTYPE, 2u * i, v);
    store_value(DTYPE, 2u * i + 1u, int_value(IWIDE(0), false));
  } else {
    store_value(DTYPE, i, v);
  }
}

void creation_element(uint i) {
  if (OP == 0) {
    dst_words.v[i] = p.pattern[i & 3u];
  } else if (OP == 1) {
    store_element(i, int_value(IWIDE((i / p.inner) % p.dim), false));
  } else {
    const bool diagonal = (i / p.cols) % p.rows == i % p.cols;
    store_element(i, int_value(IWIDE(diagonal ? 1 : 0), false));
  }
}

void main() {
  for (uint i = global_index(); i < p.n; i += grid_stride()) creation_element(i);
}
