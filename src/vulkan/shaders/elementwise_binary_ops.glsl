// The elementwise binary ops' arithmetic, shared by elementwise_binary.comp and the
// kernels vkt::compile generates (src/vulkan/compile/compiled.cpp), so both compute alike. Needs
// op_codes.glsl (OP_<NAME>, generated from the op table), common.glsl, float_bits.glsl,
// elementwise_math.glsl (and elementwise_math_f64.glsl with VKT_F64) first.
// A generated kernel defines VKT_ONLY_OPS and VKT_KEEP_OP_<NAME> per op it calls: the other
// cases of float_binary and double_binary are left out, since a driver inlines every case's
// math before it folds the constant op code (most of a first call's pipeline creation).

float float_binary(uint op, float a, float b) {
  switch (op) {
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ADD)
    case OP_ADD: return a + b;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SUBTRACT)
    case OP_SUBTRACT: return a - b;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_MULTIPLY)
    case OP_MULTIPLY: return a * b;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_DIVIDE)
    case OP_DIVIDE: return div_f32(a, b);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_POW)
    case OP_POW: return pow_f32(a, b);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_REMAINDER)
    case OP_REMAINDER: return fmod_f32(a, b);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ATAN2)
    case OP_ATAN2: return atan2_f32(a, b);
#endif
    // NaN propagates: a NaN `a` is taken as is; a NaN `b` fails the comparison.
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_MIN)
    case OP_MIN: return f32_min(a, b);
#endif
    default: return f32_max(a, b);  // OP_MAX
  }
}
// IEEE comparisons (ordered: false with a NaN, except not_equal); nonzero is true. On the
// bits (float_bits.glsl): a flushing device would call 1e-40 equal to 0.
bool float_predicate(uint op, float a, float b) {
  switch (op) {
    case OP_EQUAL: return f32_equal(a, b);
    case OP_NOT_EQUAL: return !f32_equal(a, b);
    case OP_LESS: return f32_less(a, b);
    case OP_LESS_EQUAL: return f32_less(a, b) || f32_equal(a, b);
    case OP_GREATER: return f32_less(b, a);
    case OP_GREATER_EQUAL: return f32_less(b, a) || f32_equal(a, b);
    case OP_LOGICAL_AND: return f32_nonzero(a) && f32_nonzero(b);
    case OP_LOGICAL_OR: return f32_nonzero(a) || f32_nonzero(b);
    default: return f32_nonzero(a) != f32_nonzero(b);  // OP_LOGICAL_XOR
  }
}
#ifdef VKT_F64
// f64 has no pow here (supports() sends it to the cpu): GLSL.std.450 has no f64
// transcendentals; atan2 is written out in elementwise_math_f64.glsl.
// a / b with the operands that make x / x differ from 1 (zeros, infinities, NaN) decided on
// the bits first: NVIDIA folds x / x to 1 when both operands are one value, as in a fused
// kernel's divide(x, x) (H200, VulkanCompile seed 70: 0 / 0 gave 1).
double f64_divide(double a, double b) {
  if (f64_is_nan(a) || f64_is_nan(b)) return a + b;  // NaN propagates as the hardware does
  const uint64_t abs_a = f64_bits(a) & 0x7fffffffffffffffUL, abs_b = f64_bits(b) & 0x7fffffffffffffffUL;
  const bool both_zero = abs_a == 0UL && abs_b == 0UL;
  const bool both_inf = abs_a == 0x7ff0000000000000UL && abs_b == 0x7ff0000000000000UL;
  if (both_zero || both_inf) return packDouble2x32(uvec2(0u, 0xfff80000u));  // the default NaN
  return a / b;
}

double double_binary(uint op, double a, double b) {
  switch (op) {
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ADD)
    case OP_ADD: return a + b;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SUBTRACT)
    case OP_SUBTRACT: return a - b;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_MULTIPLY)
    case OP_MULTIPLY: return a * b;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_DIVIDE)
    case OP_DIVIDE: return f64_divide(a, b);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_REMAINDER)
    case OP_REMAINDER: return fmod_f64(a, b);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ATAN2)
    case OP_ATAN2: return atan2_f64(a, b);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_MIN)
    case OP_MIN: return f64_min(a, b);
#endif
    default: return f64_max(a, b);  // OP_MAX
  }
}
bool double_predicate(uint op, double a, double b) {
  switch (op) {
    case OP_EQUAL: return f64_equal(a, b);
    case OP_NOT_EQUAL: return !f64_equal(a, b);
    case OP_LESS: return f64_less(a, b);
    case OP_LESS_EQUAL: return f64_less(a, b) || f64_equal(a, b);
    case OP_GREATER: return f64_less(b, a);
    case OP_GREATER_EQUAL: return f64_less(b, a) || f64_equal(a, b);
    case OP_LOGICAL_AND: return f64_nonzero(a) && f64_nonzero(b);
    case OP_LOGICAL_OR: return f64_nonzero(a) || f64_nonzero(b);
    default: return f64_nonzero(a) != f64_nonzero(b);  // OP_LOGICAL_XOR
  }
}
#endif

#define T int
#define U uint
#define SIGNED_T 1
#define SUF s32
#include "elementwise_int.glsl"
#undef T
#undef U
#undef SIGNED_T
#undef SUF
#define T uint
#define U uint
#define SIGNED_T 0
#define SUF u32
#include "elementwise_int.glsl"
#undef T
#undef U
#undef SIGNED_T
#undef SUF
#ifdef VKT_I64
#define T int64_t
#define U uint64_t
#define SIGNED_T 1
#define SUF s64
#include "elementwise_int.glsl"
#undef T
#undef U
#undef SIGNED_T
#undef SUF
#define T uint64_t
#define U uint64_t
#define SIGNED_T 0
#define SUF u64
#include "elementwise_int.glsl"
#undef T
#undef U
#undef SIGNED_T
#undef SUF
#endif
