#version 450
// select: out[i] = pred[i] != 0 ? on_true[i] : on_false[i]; an input of one element has
// step 0 (the core keeps it one element) and is read at 0.
// pred of any dtype is tested on its bits: PRED_WIDTH bytes, PRED_FLOAT ignores the sign bit
// (so -0.0 is false and NaN true, as the cpu's comparison with zero); a complex pred
// (PRED_COMPLEX: two floats of PRED_WIDTH / 2 bytes) is true where either part is.
#include "common.glsl"
#include "movement_word.glsl"

layout(constant_id = 1) const uint PRED_WIDTH = 1;
layout(constant_id = 2) const bool PRED_FLOAT = false;
layout(constant_id = 3) const bool PRED_COMPLEX = false;

layout(binding = 0) readonly buffer Pred8 { uint8_t v[]; } pred8;
layout(binding = 0) readonly buffer Pred16 { uint16_t v[]; } pred16;
layout(binding = 0) readonly buffer Pred32 { uint v[]; } pred32;
layout(binding = 1) readonly buffer OnTrue { WORD v[]; } on_true;
layout(binding = 2) readonly buffer OnFalse { WORD v[]; } on_false;
layout(binding = 3) writeonly buffer Dst { WORD v[]; } dst;
layout(push_constant) uniform Push { uint n, pred_step, true_step, false_step; } p;

bool pred_at(uint i) {
  if (PRED_COMPLEX && PRED_WIDTH == 8u) {
    return ((pred32.v[2u * i] | pred32.v[2u * i + 1u]) & 0x7fffffffu) != 0u;
  }
  if (PRED_COMPLEX) {  // c128: (lo, hi) words of the real part, then of the imaginary part
    const uint re = pred32.v[4u * i] | (pred32.v[4u * i + 1u] & 0x7fffffffu);
    return (re | pred32.v[4u * i + 2u] | (pred32.v[4u * i + 3u] & 0x7fffffffu)) != 0u;
  }
  if (PRED_WIDTH == 1u) return uint(pred8.v[i]) != 0u;
  if (PRED_WIDTH == 2u) return (uint(pred16.v[i]) & (PRED_FLOAT ? 0x7fffu : 0xffffu)) != 0u;
  if (PRED_WIDTH == 4u) return (pred32.v[i] & (PRED_FLOAT ? 0x7fffffffu : 0xffffffffu)) != 0u;
  return (pred32.v[2u * i] | (pred32.v[2u * i + 1u] & (PRED_FLOAT ? 0x7fffffffu : 0xffffffffu))) != 0u;
}

// Four elements per step, loads before stores (as index_clip.comp).
void main() {
  const uint stride = grid_stride(), end = unrolled_end(p.n, stride);
  uint i = global_index();
  for (; i < end; i += 4u * stride) {
    const uint i1 = i + stride, i2 = i1 + stride, i3 = i2 + stride;
    const bool c0 = pred_at(i * p.pred_step), c1 = pred_at(i1 * p.pred_step);
    const bool c2 = pred_at(i2 * p.pred_step), c3 = pred_at(i3 * p.pred_step);
    const REG w0 = c0 ? TO_REG(on_true.v[i * p.true_step]) : TO_REG(on_false.v[i * p.false_step]);
    const REG w1 = c1 ? TO_REG(on_true.v[i1 * p.true_step]) : TO_REG(on_false.v[i1 * p.false_step]);
    const REG w2 = c2 ? TO_REG(on_true.v[i2 * p.true_step]) : TO_REG(on_false.v[i2 * p.false_step]);
    const REG w3 = c3 ? TO_REG(on_true.v[i3 * p.true_step]) : TO_REG(on_false.v[i3 * p.false_step]);
    dst.v[i] = TO_WORD(w0);
    dst.v[i1] = TO_WORD(w1);
    dst.v[i2] = TO_WORD(w2);
    dst.v[i3] = TO_WORD(w3);
  }
  for (; i < p.n; i += stride) {
    dst.v[i] = pred_at(i * p.pred_step) ? on_true.v[i * p.true_step] : on_false.v[i * p.false_step];
  }
}
