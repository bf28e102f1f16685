#version 450
// pad as a gather: output element at coordinate o_k reads input coordinate
// (o_k - lo_k) / step_k when that is a whole number inside the input on every axis, and the
// fill word otherwise. One pass, every output element written once, coalesced.
#include "common.glsl"
#include "movement_word.glsl"

// RANK as a constant unrolls the walk over the axes.
layout(constant_id = 1) const uint RANK = 1;

layout(binding = 0) readonly buffer Src { WORD v[]; } src;
layout(binding = 1) writeonly buffer Dst { WORD v[]; } dst;
layout(push_constant) uniform Push {
  uint n, shifts, fill_lo, fill_hi;  // shifts: axis k's divisor shift in bits 6(k-1)..6k-1
  // Axes 1.. only: the outermost axis needs no division.
  uint out_dim[MAX_RANK - 1];
  uint magic[MAX_RANK - 1];
  int lo[MAX_RANK];
  uint step[MAX_RANK];
  uint in_dim[MAX_RANK];
} p;

// The input word index of output element i, or kOutside where it is the fill.
const uint kOutside = 0xffffffffu;
uint locate(uint i) {
  uint rem = i, src_index = 0u, in_stride = 1u;
  bool inside = true;
  for (int k = int(RANK) - 1; k >= 0; --k) {
    // The outermost axis: rem is already its coordinate.
    const uint quotient = k > 0 ? fast_div(rem, p.magic[k - 1], shift_at(p.shifts, k - 1)) : 0u;
    const int q = int(k > 0 ? rem - quotient * p.out_dim[k - 1] : rem) - p.lo[k];
    rem = quotient;
    const uint step = p.step[k];
    const uint c = step == 1u ? uint(q) : uint(q) / step;  // no division without interior
    inside = inside && q >= 0 && uint(q) == c * step && c < p.in_dim[k];
    src_index += c * in_stride;
    in_stride *= p.in_dim[k];
  }
  return inside ? src_index : kOutside;
}

REG fill_word() {
#if WIDTH == 8
  return uvec2(p.fill_lo, p.fill_hi);
#else
  return p.fill_lo;
#endif
}

REG word_at(uint s) { return s == kOutside ? fill_word() : TO_REG(src.v[s]); }

void main() {
  const uint stride = grid_stride(), end = unrolled_end(p.n, stride);
  uint i = global_index();
  for (; i < end; i += 4u * stride) {
    const uint s0 = locate(i), s1 = locate(i + stride);
    const uint s2 = locate(i + 2u * stride), s3 = locate(i + 3u * stride);
    const REG w0 = word_at(s0), w1 = word_at(s1), w2 = word_at(s2), w3 = word_at(s3);
    dst.v[i] = TO_WORD(w0);
    dst.v[i + stride] = TO_WORD(w1);
    dst.v[i + 2u * stride] = TO_WORD(w2);
    dst.v[i + 3u * stride] = TO_WORD(w3);
  }
  for (; i < p.n; i += stride) dst.v[i] = TO_WORD(word_at(locate(i)));
}
