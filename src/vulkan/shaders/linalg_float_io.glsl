// Float dtypes for linalg_dot.comp: f32 in f32; f16/bf16 widened to f32, accumulated in
// f32 and rounded once on store (as the cpu's sgemm path); f64 in f64 (VKT_F64).
#include "dtype_value.glsl"

#ifdef VKT_F64
#define ACC double
#else
#define ACC float
#endif

layout(binding = 0) readonly buffer AF32 { float v[]; } a_f32;
layout(binding = 0) readonly buffer AU16 { uint16_t v[]; } a_u16;
layout(binding = 1) readonly buffer BF32 { float v[]; } b_f32;
layout(binding = 1) readonly buffer BU16 { uint16_t v[]; } b_u16;
layout(binding = 2) writeonly buffer CF32 { float v[]; } c_f32;
layout(binding = 2) writeonly buffer CU16 { uint16_t v[]; } c_u16;
#ifdef VKT_F64
layout(binding = 0) readonly buffer AF64 { double v[]; } a_f64;
layout(binding = 1) readonly buffer BF64 { double v[]; } b_f64;
layout(binding = 2) writeonly buffer CF64 { double v[]; } c_f64;
#endif

ACC half_to_acc(uint bits) {
  if (DTYPE == DT_BF16) return ACC(uintBitsToFloat(bits << 16));
  return ACC(unpackHalf2x16(bits).x);
}

ACC load_a(uint i) {
#ifdef VKT_F64
  if (DTYPE == DT_F64) return a_f64.v[i];
#endif
  if (DTYPE == DT_F16 || DTYPE == DT_BF16) return half_to_acc(uint(a_u16.v[i]));
  return ACC(a_f32.v[i]);
}

ACC load_b(uint i) {
#ifdef VKT_F64
  if (DTYPE == DT_F64) return b_f64.v[i];
#endif
  if (DTYPE == DT_F16 || DTYPE == DT_BF16) return half_to_acc(uint(b_u16.v[i]));
  return ACC(b_f32.v[i]);
}

void store_c(uint i, ACC x) {
#ifdef VKT_F64
  if (DTYPE == DT_F64) {
    c_f64.v[i] = x;
    return;
  }
#endif
  if (DTYPE == DT_F16) {
    c_u16.v[i] = uint16_t(f32_to_f16_bits(float(x)));
  } else if (DTYPE == DT_BF16) {
    c_u16.v[i] = uint16_t(f32_to_bf16_bits(float(x)));
  } else {
    c_f32.v[i] = float(x);
  }
}

// Scratch of partial sums (MODE 1 writes it as C, MODE 2 reads it as A), in the
// accumulator type.
void store_partial(uint i, ACC x) {
#ifdef VKT_F64
  c_f64.v[i] = x;
#else
  c_f32.v[i] = x;
#endif
}
ACC load_partial(uint i) {
#ifdef VKT_F64
  return a_f64.v[i];
#else
  return a_f32.v[i];
#endif
}
