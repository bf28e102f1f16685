// The accumulators of the reductions and scans (reduce.comp, cumulative.comp): the type ACC
// chosen by variant (ACC_F32, ACC_F64, ACC_U32, ACC_S32, ACC_U64, ACC_S64), the source view
// at binding 0, and the rules of src/cpu/reduce_ops.h (identity, combine).
// Specialization constants 1..3 are SRC_DTYPE, DST_DTYPE, OP (a COMBINE_<NAME> code,
// generated from the op table); files number theirs from 4.
#include "float_bits.glsl"
#include "op_codes.glsl"

#if defined(ACC_F32)
#define ACC float
#define ACC_IS_FLOAT
#elif defined(ACC_F64)
#define ACC double
#define ACC_IS_FLOAT
#elif defined(ACC_U32)
#define ACC uint
#elif defined(ACC_S32)
#define ACC int
#elif defined(ACC_U64)
#define ACC uint64_t
#elif defined(ACC_S64)
#define ACC int64_t
#endif

layout(constant_id = 1) const uint SRC_DTYPE = 10;
layout(constant_id = 2) const uint DST_DTYPE = 10;
layout(constant_id = 3) const uint OP = 0;

#ifdef VKT_FUSED_PROLOGUE
// vkt::compile's fused reductions evaluate their elementwise prologue at element i instead
// of reading a source buffer: the generated shader defines load_value after this file.
Value load_value(uint i);
#else
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

Value load_value(uint i) {
  const uint d = SRC_DTYPE;
  if (d == DT_U8) return int_value(IWIDE(uint(src_u8.v[i])), true);
  if (d == DT_S8) return int_value(IWIDE(int(src_s8.v[i])), false);
  if (d == DT_U16) return int_value(IWIDE(uint(src_u16.v[i])), true);
  if (d == DT_S16) return int_value(IWIDE(int(src_s16.v[i])), false);
  if (d == DT_U32) return int_value(IWIDE(src_u32.v[i]), true);
  if (d == DT_S32) return int_value(IWIDE(src_s32.v[i]), false);
  if (d == DT_F16) return float_value(FWIDE(unpackHalf2x16(uint(src_u16.v[i])).x));
  if (d == DT_BF16) return float_value(widen(uintBitsToFloat(uint(src_u16.v[i]) << 16)));
#ifdef VKT_I64
  if (d == DT_U64) return int_value(IWIDE(src_u64.v[i]), true);
  if (d == DT_S64) return int_value(IWIDE(src_u64.v[i]), false);
#endif
#ifdef VKT_F64
  if (d == DT_F64) return float_value(src_f64.v[i]);
#endif
  return float_value(widen(src_f32.v[i]));
}
#endif

// On the bits (float_bits.glsl): where arithmetic flushes, 1e-40 would read as 0.
bool float_nonzero(FWIDE x) {
#ifdef VKT_F64
  return f64_nonzero(x);
#else
  return f32_nonzero(x);
#endif
}
// The element as an accumulator operand: a truth value (0/1) for all/any, else the value.
ACC load_acc(uint i) {
  const Value v = load_value(i);
  if (OP == COMBINE_ALL || OP == COMBINE_ANY) {
    const bool truth = v.is_float ? float_nonzero(v.f) : v.i != IWIDE(0);
    return ACC(truth ? 1 : 0);
  }
#ifdef ACC_IS_FLOAT
  return ACC(v.f);
#else
  return ACC(v.i);
#endif
}

bool acc_isnan(ACC x) {
#ifdef ACC_IS_FLOAT
  return isnan(x);
#else
  return false;
#endif
}
// a < b ordered as values; float accumulators compare their bits (float_bits.glsl).
// The order max/min pick by: acc_less, with -0 below +0 (float_bits.glsl).
bool acc_order_less(ACC a, ACC b) {
#if defined(ACC_F32)
  return f32_order_less(a, b);
#elif defined(ACC_F64)
  return f64_order_less(a, b);
#else
  return a < b;
#endif
}
bool acc_less(ACC a, ACC b) {
#if defined(ACC_F32)
  return f32_less(a, b);
#elif defined(ACC_F64)
  return f64_less(a, b);
#else
  return a < b;
#endif
}
bool acc_equal(ACC a, ACC b) {
#if defined(ACC_F32)
  return f32_equal(a, b);
#elif defined(ACC_F64)
  return f64_equal(a, b);
#else
  return a == b;
#endif
}

// The result of an empty reduction; for max/min the extremes of the source dtype (only an
// empty input is ever stored with it, and then SRC_DTYPE is the input's dtype).
ACC identity() {
  if (OP == COMBINE_SUM || OP == COMBINE_ANY) return ACC(0);
  if (OP == COMBINE_PRODUCT || OP == COMBINE_ALL) return ACC(1);
  const bool low = OP == COMBINE_MAX || OP == COMBINE_ARGMAX;
#if defined(ACC_F32)
  return uintBitsToFloat(low ? 0xff800000u : 0x7f800000u);
#elif defined(ACC_F64)
  return packDouble2x32(uvec2(0u, low ? 0xfff00000u : 0x7ff00000u));
#else
  const uint d = SRC_DTYPE;
  const uint bits = (d == DT_U8 || d == DT_S8) ? 8u : (d == DT_U16 || d == DT_S16) ? 16u
                  : (d == DT_U32 || d == DT_S32) ? 32u : 64u;
  const bool u = is_unsigned_code(d);
#if defined(ACC_U64) || defined(ACC_S64)
  const uint64_t ones = bits == 64u ? ~uint64_t(0) : (uint64_t(1) << bits) - 1ul;
  if (u) return ACC(low ? uint64_t(0) : ones);
  const uint64_t top = ones >> 1;  // the signed max
  return ACC(low ? ~top : top);
#else
  const uint ones = bits == 32u ? ~0u : (1u << bits) - 1u;
  if (u) return ACC(low ? 0u : ones);
  const uint top = ones >> 1;
  return ACC(low ? ~top : top);
#endif
#endif
}

// a then b combined; max/min keep the first NaN (NaN propagates).
// Sums and products are precise: a fused prologue's product must not be contracted into
// the accumulation (NVIDIA did so in a row kernel on the H200); eager's operand is a load.
ACC combine(ACC a, ACC b) {
#ifdef ACC_IS_FLOAT
  precise ACC r = OP == COMBINE_SUM ? a + b : a * b;
#else
  ACC r = OP == COMBINE_SUM ? a + b : a * b;
#endif
  if (OP == COMBINE_SUM || OP == COMBINE_PRODUCT) return r;
#ifndef ACC_IS_FLOAT
  if (OP == COMBINE_ALL) return a & b;  // all/any always accumulate in ACC_U32
  if (OP == COMBINE_ANY) return a | b;
#endif
  if (acc_isnan(a)) return a;
  if (acc_isnan(b)) return b;
  if (OP == COMBINE_MAX) return acc_order_less(a, b) ? b : a;
  return acc_order_less(b, a) ? b : a;
}

