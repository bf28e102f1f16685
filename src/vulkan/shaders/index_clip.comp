#version 450
// clip: v = x; v = v < lo ? lo : v; v = v > hi ? hi : v (x broadcast; a bound is x's shape
// or one element), the cpu's order, so a NaN x stays NaN. Values are compared through order-preserving keys of
// their bits (KIND 0 unsigned, 1 signed, 2 float), so no 8/16/64-bit arithmetic is needed
// and the chosen word is copied bit for bit. Floats: NaN compares false; -0 == +0.
// HALF: 1 for f16, 2 for bf16 — the cpu rounds its f32 result back, which quiets a NaN.
#include "common.glsl"
#include "movement_word.glsl"

layout(constant_id = 1) const uint KIND = 0;
layout(constant_id = 2) const uint HALF = 0;

layout(binding = 0) readonly buffer X { WORD v[]; } x;
layout(binding = 1) readonly buffer Lo { WORD v[]; } lo;
layout(binding = 2) readonly buffer Hi { WORD v[]; } hi;
layout(binding = 3) writeonly buffer Dst { WORD v[]; } dst;
// lo_step, hi_step: 1, or 0 for a one-element bound (read at 0 for every element).
layout(push_constant) uniform Push { uint n, lo_step, hi_step; } p;

const uint BITS = 8u * WIDTH;
// Words as (hi, lo) uint pairs; for widths below 8, hi is 0.
const uint SIGN_HI = WIDTH == 8 ? 0x80000000u : 0u;
const uint SIGN_LO = WIDTH == 8 ? 0u : (1u << (BITS - 1u));
const uint FULL_LO = WIDTH >= 4 ? 0xffffffffu : ((1u << BITS) - 1u);
const uint FULL_HI = WIDTH == 8 ? 0xffffffffu : 0u;
// The bits of +infinity for the float of this width (f16 or bf16 by HALF for width 2).
const uint INF_HI = WIDTH == 8 ? 0x7ff00000u : 0u;
const uint INF_LO = WIDTH == 4 ? 0x7f800000u : WIDTH == 2 ? (HALF == 2u ? 0x7f80u : 0x7c00u) : 0u;

#if WIDTH == 8
#define PAIR(w) uvec2((w).y, (w).x)
#else
#define PAIR(w) uvec2(0u, uint(w))
#endif

bool is_nan(uvec2 b) {
  const uvec2 mag = uvec2(b.x & ~SIGN_HI, b.y & ~SIGN_LO);
  return KIND == 2u && (mag.x > INF_HI || (mag.x == INF_HI && mag.y > INF_LO));
}

// An unsigned key with the order of the value.
uvec2 key(uvec2 b) {
  if (KIND == 0u) return b;
  if (KIND == 1u) return uvec2(b.x ^ SIGN_HI, b.y ^ SIGN_LO);
  const bool negative = (b.x & SIGN_HI) != 0u || (b.y & SIGN_LO) != 0u;
  const bool zero = (b.x & ~SIGN_HI) == 0u && (b.y & ~SIGN_LO) == 0u;
  if (zero) return uvec2(SIGN_HI, SIGN_LO);
  if (negative) return uvec2(~b.x & FULL_HI, ~b.y & FULL_LO);
  return uvec2(b.x | SIGN_HI, b.y | SIGN_LO);
}

bool less(uvec2 a, uvec2 b) {
  if (is_nan(a) || is_nan(b)) return false;
  const uvec2 ka = key(a), kb = key(b);
  return ka.x < kb.x || (ka.x == kb.x && ka.y < kb.y);
}

void index_clip_element(uint i) {
  const uint il = i * p.lo_step, ih = i * p.hi_step;
  const uvec2 xv = PAIR(x.v[i]), l = PAIR(lo.v[il]), h = PAIR(hi.v[ih]);
  uint which = less(xv, l) ? 1u : 0u;
  if (less(h, which == 1u ? l : xv)) which = 2u;
  if (which == 0u) {
#if WIDTH == 2
    // The cpu's f32 -> half rounding of a NaN: f16 keeps the sign with a quiet payload 0x200,
    // bf16 sets the quiet bit 0x40.
    if (HALF != 0u && is_nan(xv)) {
      dst.v[i] = uint16_t(HALF == 1u ? ((xv.y & 0x8000u) | 0x7e00u) : (xv.y | 0x40u));
      return;
    }
#endif
    dst.v[i] = x.v[i];
  } else {
    dst.v[i] = which == 1u ? lo.v[il] : hi.v[ih];
  }
}

void main() {
  for (uint i = global_index(); i < p.n; i += grid_stride()) index_clip_element(i);
}
