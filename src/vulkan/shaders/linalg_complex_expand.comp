#version 450
// A complex dot's right operand b [batch, K, N] (any strides) as the real matrix
// [batch, 2K, 2N] of 2x2 blocks [[re, im], [-im, re]] (linalg.cpp's record_complex_dot).
// Parts move as 32-bit words (PART_WORDS: 1 for c64, 2 for c128) and the negation flips the
// sign bit, so every value is exact whatever the device does to subnormals.
#include "common.glsl"

layout(constant_id = 1) const uint PART_WORDS = 1;

layout(binding = 0) readonly buffer Src { uint v[]; } src;
layout(binding = 1) writeonly buffer Dst { uint v[]; } dst;
// n = batch * K * N elements of b; b's strides in complex elements.
layout(push_constant) uniform Push { uint n, cols, depth, sbb, sbk, sbn; } p;

void expand_element(uint i) {
  const uint col = i % p.cols, row = (i / p.cols) % p.depth, batch = i / (p.cols * p.depth);
  const uint s = (batch * p.sbb + row * p.sbk + col * p.sbn) * 2u * PART_WORDS;
  // Destination rows 2 row and 2 row + 1 of width 2 cols, in part units.
  const uint w = 2u * p.cols;
  const uint top = ((batch * 2u * p.depth + 2u * row) * w + 2u * col) * PART_WORDS;
  const uint bottom = top + w * PART_WORDS;
  const uint sign = PART_WORDS - 1u;  // the word holding a part's sign bit
  for (uint j = 0u; j < PART_WORDS; ++j) {
    const uint re = src.v[s + j], im = src.v[s + PART_WORDS + j];
    dst.v[top + j] = re;
    dst.v[top + PART_WORDS + j] = im;
    dst.v[bottom + j] = j == sign ? im ^ 0x80000000u : im;
    dst.v[bottom + PART_WORDS + j] = re;
  }
}

void main() {
  for (uint i = global_index(); i < p.n; i += grid_stride()) expand_element(i);
}
