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

// The word clip makes of one element's x, lo and hi words.
REG clip_word(REG xw, REG lw, REG hw) {
  const uvec2 xv = PAIR(xw), l = PAIR(lw), h = PAIR(hw);
  uint which = less(xv, l) ? 1u : 0u;
  if (less(h, which == 1u ? l : xv)) which = 2u;
  if (which == 1u) return lw;
  if (which == 2u) return hw;
#if WIDTH == 2
  // The cpu's f32 -> half rounding of a NaN: f16 keeps the sign with a quiet payload 0x200,
  // bf16 sets the quiet bit 0x40.
  if (HALF != 0u && is_nan(xv)) return HALF == 1u ? ((xv.y & 0x8000u) | 0x7e00u) : (xv.y | 0x40u);
#endif
  return xw;
}

#if WIDTH == 4
// 4-byte words move as 16-byte loads and stores of x and dst (and of full-size bounds),
// one-element bounds read once, then the last n % 4 one by one.
layout(binding = 0) readonly buffer X4 { uvec4 v[]; } x4;
layout(binding = 1) readonly buffer Lo4 { uvec4 v[]; } lo4;
layout(binding = 2) readonly buffer Hi4 { uvec4 v[]; } hi4;
layout(binding = 3) writeonly buffer Dst4 { uvec4 v[]; } dst4;

// clip_word for f32 in fewer instructions: signed-magnitude keys (-0 == +0) and NaN tests
// on the bits, the same choices as less() (a NaN operand compares false).
int f32_clip_key(uint b) { return (b & 0x80000000u) != 0u ? -int(b & 0x7fffffffu) : int(b); }
bool f32_clip_nan(uint b) { return (b & 0x7fffffffu) > 0x7f800000u; }
uint clip_f32(uint xw, uint lw, uint hw) {
  const int kx = f32_clip_key(xw), kl = f32_clip_key(lw), kh = f32_clip_key(hw);
  const bool xn = f32_clip_nan(xw), ln = f32_clip_nan(lw), hn = f32_clip_nan(hw);
  const bool below = !xn && !ln && kx < kl;
  const int kv = below ? kl : kx;
  const bool vn = below ? ln : xn;
  const bool above = !hn && !vn && kh < kv;
  return above ? hw : below ? lw : xw;
}

uvec4 clip_quad(uvec4 xv, uvec4 lv, uvec4 hv) {
  uvec4 r;
  for (int c = 0; c < 4; ++c) r[c] = KIND == 2u ? clip_f32(xv[c], lv[c], hv[c]) : clip_word(xv[c], lv[c], hv[c]);
  return r;
}

void clip_vec4() {
  const uint stride = grid_stride(), n4 = p.n / 4u;
  const uvec4 lo_one = uvec4(lo.v[0]), hi_one = uvec4(hi.v[0]);
  uint j = global_index();
  // Two quads in flight per step (their loads before any store).
  for (; j + stride < n4; j += 2u * stride) {
    const uvec4 xa = x4.v[j], xb = x4.v[j + stride];
    uvec4 la = lo_one, lb = lo_one, ha = hi_one, hb = hi_one;
    if (p.lo_step != 0u) {
      la = lo4.v[j];
      lb = lo4.v[j + stride];
    }
    if (p.hi_step != 0u) {
      ha = hi4.v[j];
      hb = hi4.v[j + stride];
    }
    dst4.v[j] = clip_quad(xa, la, ha);
    dst4.v[j + stride] = clip_quad(xb, lb, hb);
  }
  for (; j < n4; j += stride) {
    uvec4 l = lo_one, h = hi_one;
    if (p.lo_step != 0u) l = lo4.v[j];
    if (p.hi_step != 0u) h = hi4.v[j];
    dst4.v[j] = clip_quad(x4.v[j], l, h);
  }
  for (uint i = 4u * n4 + global_index(); i < p.n; i += stride) {
    const uint w = x.v[i], l = lo.v[i * p.lo_step], h = hi.v[i * p.hi_step];
    dst.v[i] = KIND == 2u ? clip_f32(w, l, h) : clip_word(w, l, h);
  }
}
#endif

// Four elements per step, their loads issued before any store (one element per step
// reached a fraction of the H200's bandwidth).
void main() {
#if WIDTH == 4
  clip_vec4();
#else
  const uint stride = grid_stride(), end = unrolled_end(p.n, stride);
  uint i = global_index();
  for (; i < end; i += 4u * stride) {
    const uint i1 = i + stride, i2 = i1 + stride, i3 = i2 + stride;
    const REG x0 = TO_REG(x.v[i]), x1 = TO_REG(x.v[i1]), x2 = TO_REG(x.v[i2]), x3 = TO_REG(x.v[i3]);
    const REG l0 = TO_REG(lo.v[i * p.lo_step]), l1 = TO_REG(lo.v[i1 * p.lo_step]);
    const REG l2 = TO_REG(lo.v[i2 * p.lo_step]), l3 = TO_REG(lo.v[i3 * p.lo_step]);
    const REG h0 = TO_REG(hi.v[i * p.hi_step]), h1 = TO_REG(hi.v[i1 * p.hi_step]);
    const REG h2 = TO_REG(hi.v[i2 * p.hi_step]), h3 = TO_REG(hi.v[i3 * p.hi_step]);
    dst.v[i] = TO_WORD(clip_word(x0, l0, h0));
    dst.v[i1] = TO_WORD(clip_word(x1, l1, h1));
    dst.v[i2] = TO_WORD(clip_word(x2, l2, h2));
    dst.v[i3] = TO_WORD(clip_word(x3, l3, h3));
  }
  for (; i < p.n; i += stride) {
    dst.v[i] = TO_WORD(clip_word(TO_REG(x.v[i]), TO_REG(lo.v[i * p.lo_step]), TO_REG(hi.v[i * p.hi_step])));
  }
#endif
}
