#version 450
// as_type: out[i] = convert<dst dtype>(in[i]). Dtypes are specialization constants. A
// complex element is two floats of its parts' type: complex -> real converts the real part,
// real -> complex stores an imaginary 0, complex -> complex converts both parts.
#include "common.glsl"
#include "dtype_value.glsl"

layout(constant_id = 1) const uint SRC_DTYPE = 10;
layout(constant_id = 2) const uint DST_DTYPE = 10;

layout(binding = 0) readonly buffer SrcU8 { uint8_t v[]; } src_u8;
layout(binding = 0) readonly buffer SrcS8 { int8_t v[]; } src_s8;
layout(binding = 0) readonly buffer SrcU16 { uint16_t v[]; } src_u16;
layout(binding = 0) readonly buffer SrcS16 { int16_t v[]; } src_s16;
layout(binding = 0) readonly buffer SrcU32 { uint v[]; } src_u32;
layout(binding = 0) readonly buffer SrcS32 { int v[]; } src_s32;
layout(binding = 0) readonly buffer SrcF32 { float v[]; } src_f32;
#ifdef VKT_I64
layout(binding = 0) readonly buffer SrcU64 { uint64_t v[]; } src_u64;
#endif
#ifdef VKT_F64
layout(binding = 0) readonly buffer SrcF64 { double v[]; } src_f64;
#endif

#define DST_BINDING 1
#include "dtype_store.glsl"

layout(push_constant) uniform Push { uint n; } p;

Value load_value(uint d, uint i) {
  if (d == DT_U8) return int_value(IWIDE(uint(src_u8.v[i])), true);
  if (d == DT_S8) return int_value(IWIDE(int(src_s8.v[i])), false);
  if (d == DT_U16) return int_value(IWIDE(uint(src_u16.v[i])), true);
  if (d == DT_S16) return int_value(IWIDE(int(src_s16.v[i])), false);
  if (d == DT_U32) return int_value(IWIDE(src_u32.v[i]), true);
  if (d == DT_S32) return int_value(IWIDE(src_s32.v[i]), false);
  if (d == DT_F16) return float_value(widen(f32_of_f16_bits(uint(src_u16.v[i]))));
  if (d == DT_BF16) return float_value(widen(uintBitsToFloat(uint(src_u16.v[i]) << 16)));
  if (d == DT_F8 || d == DT_F8_E4M3FN) return float_value(widen(f8_decode(uint(src_u8.v[i]), d)));
  if (is_narrow_int_code(d)) {
    return int_value(IWIDE(narrow_int(uint(src_u8.v[i]), d)), is_unsigned_code(d));
  }
#ifdef VKT_I64
  if (d == DT_U64) return int_value(IWIDE(src_u64.v[i]), true);
  if (d == DT_S64) return int_value(IWIDE(src_u64.v[i]), false);
#endif
#ifdef VKT_F64
  if (d == DT_F64) return float_value(src_f64.v[i]);
#endif
  return float_value(widen(src_f32.v[i]));
}

bool is_complex_code(uint d) { return d == DT_C64 || d == DT_C128; }
uint part_code(uint d) { return d == DT_C64 ? DT_F32 : d == DT_C128 ? DT_F64 : d; }

void conversion_element(uint i) {
  const bool src_complex = is_complex_code(SRC_DTYPE);
  const uint src = part_code(SRC_DTYPE), dst = part_code(DST_DTYPE);
  const Value re = load_value(src, src_complex ? 2u * i : i);
  if (is_complex_code(DST_DTYPE)) {
    const Value im = src_complex ? load_value(src, 2u * i + 1u) : float_value(FWIDE(0));
    store_value(dst, 2u * i, re);
    store_value(dst, 2u * i + 1u, im);
  } else {
    store_value(dst, i, re);
  }
}

void main() {
  for (uint i = global_index(); i < p.n; i += grid_stride()) conversion_element(i);
}
