#version 450
// concatenate as one gather pass: the output seen as {rows, row_len} words, of which this
// pass writes columns [col0, col0 + cols), taking each column from one of up to three
// inputs (input k: {rows, width_k}, contiguous). Every invocation writes output words in
// order (coalesced stores) and reads its input's run in order, so one dispatch replaces a
// copy or strided pass per input and the barriers between them. The outer axis is rows = 1.
#include "common.glsl"
#include "movement_word.glsl"

// Unused sources are bound to a used input and never read.
layout(binding = 0) readonly buffer Src0 { WORD v[]; } src0;
layout(binding = 1) readonly buffer Src1 { WORD v[]; } src1;
layout(binding = 2) readonly buffer Src2 { WORD v[]; } src2;
layout(binding = 3) writeonly buffer Dst { WORD v[]; } dst;
layout(push_constant) uniform Push {
  uint n;              // rows * cols
  uint cols;           // columns this pass writes
  uint magic, shift;   // cols as a divisor (FastDivisor)
  uint row_len, col0;  // the output's row length; the first column written
  uint end0, end1;     // input 0 covers columns [0, end0), 1 [end0, end1), 2 [end1, cols)
} p;

// The word of pass element i, and its output index in d.
REG load(uint i, out uint d) {
  const uint r = fast_div(i, p.magic, p.shift);
  const uint c = i - r * p.cols;
  d = r * p.row_len + p.col0 + c;
  if (c < p.end0) return TO_REG(src0.v[r * p.end0 + c]);
  if (c < p.end1) return TO_REG(src1.v[r * (p.end1 - p.end0) + (c - p.end0)]);
  return TO_REG(src2.v[r * (p.cols - p.end1) + (c - p.end1)]);
}

void main() {
  const uint stride = grid_stride(), end = unrolled_end(p.n, stride);
  uint i = global_index();
  for (; i < end; i += 4u * stride) {
    uint d0, d1, d2, d3;
    const REG w0 = load(i, d0), w1 = load(i + stride, d1);
    const REG w2 = load(i + 2u * stride, d2), w3 = load(i + 3u * stride, d3);
    dst.v[d0] = TO_WORD(w0);
    dst.v[d1] = TO_WORD(w1);
    dst.v[d2] = TO_WORD(w2);
    dst.v[d3] = TO_WORD(w3);
  }
  for (; i < p.n; i += stride) {
    uint d;
    const REG w = load(i, d);
    dst.v[d] = TO_WORD(w);
  }
}
