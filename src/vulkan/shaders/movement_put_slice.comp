#version 450
// put_slice as one pass over the output: element i takes the update's word where its
// coordinate lies in the box [lo_k, lo_k + len_k) on every axis, else t's word i. One
// dispatch instead of a copy of t, a barrier and the update's strided copy; every output
// word is written once, in order.
#include "common.glsl"
#include "movement_word.glsl"

// RANK as a constant unrolls the walk over the (collapsed) axes.
layout(constant_id = 1) const uint RANK = 1;

layout(binding = 0) readonly buffer T { WORD v[]; } t;
layout(binding = 1) readonly buffer Update { WORD v[]; } update;
layout(binding = 2) writeonly buffer Dst { WORD v[]; } dst;
layout(push_constant) uniform Push {
  uint n, shifts;  // shifts: axis k's divisor shift in bits 6(k-1)..6k-1 (k >= 1)
  // Axes 1.. only: the outermost axis needs no division.
  uint dim[MAX_RANK - 1];
  uint magic[MAX_RANK - 1];
  uint lo[MAX_RANK];
  uint len[MAX_RANK];
} p;

// The update's word index for output element i, or kOutside where t's word stays.
const uint kOutside = 0xffffffffu;
uint locate(uint i) {
  uint rem = i, u = 0u, u_stride = 1u;
  bool inside = true;
  for (int k = int(RANK) - 1; k >= 0; --k) {
    // The outermost axis: rem is already its coordinate.
    const uint q = k > 0 ? fast_div(rem, p.magic[k - 1], shift_at(p.shifts, k - 1)) : 0u;
    const uint x = k > 0 ? rem - q * p.dim[k - 1] : rem;
    rem = q;
    const uint off = x - p.lo[k];  // wraps above len when x < lo
    inside = inside && off < p.len[k];
    u += off * u_stride;
    u_stride *= p.len[k];
  }
  return inside ? u : kOutside;
}

REG word_at(uint i, uint u) { return u == kOutside ? TO_REG(t.v[i]) : TO_REG(update.v[u]); }

void main() {
  const uint stride = grid_stride(), end = unrolled_end(p.n, stride);
  uint i = global_index();
  for (; i < end; i += 4u * stride) {
    const uint u0 = locate(i), u1 = locate(i + stride);
    const uint u2 = locate(i + 2u * stride), u3 = locate(i + 3u * stride);
    const REG w0 = word_at(i, u0), w1 = word_at(i + stride, u1);
    const REG w2 = word_at(i + 2u * stride, u2), w3 = word_at(i + 3u * stride, u3);
    dst.v[i] = TO_WORD(w0);
    dst.v[i + stride] = TO_WORD(w1);
    dst.v[i + 2u * stride] = TO_WORD(w2);
    dst.v[i + 3u * stride] = TO_WORD(w3);
  }
  for (; i < p.n; i += stride) dst.v[i] = TO_WORD(word_at(i, locate(i)));
}
