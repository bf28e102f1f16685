// The complex elementwise ops (elementwise_complex_ops.glsl) instantiated for c64 (names
// ending _c64, on float) and, in the f64 module, c128 (_c128, on double). Included after
// the op codes and the real math (elementwise_math.glsl, elementwise_math_f64.glsl).
// A real root that sees subnormals where the device flushes (scaled on the bits, as
// elementwise_unary_ops.glsl's sqrt_f32, which the binary shader does not include).
float c64_real_sqrt(float x) {
  if (!f32_subnormal(x)) return sqrt(x);
  int e;
  const float m = mantissa_of(floatBitsToUint(x) & 0x7fffffffu, e);
  return sqrt(copy_sign(ldexp_bits(m, e + 64), x)) * 2.3283064365386963e-10;
}
#define CT vec2
#define RT float
#define CF(name) name##_c64
#define RDIV div_f32
#define R_NONZERO f32_nonzero
#define R_EQUAL f32_equal
#define R_EXP exp_f32
#define R_LOG log_f32
#define R_LOG1P log1p_f32
#define R_ATAN2 atan2_f32
#define R_SINCOS sincos_f32
#define R_SQRT c64_real_sqrt
#define R_TWO_PROD_ERR two_prod_error
#define R_HUGE 8.5070592e37       // 2^126: past it, sqrt's sums could overflow
#define R_TINY 1.5407440e-33      // 2^-109: below it, sqrt scales up
#define R_EXP_MAX 88.0            // exp of more overflows: exp(x / 2) twice
#define R_PI 3.14159265358979323846
#define R_INF EW_INF
#define R_NAN EW_NAN
#define R_UP 1.152921504606847e18       // 2^60: tiny operands of sqrt scaled up
#define R_UP_ROOT 9.313225746154785e-10  // 2^-30: its root, undone
#include "elementwise_complex_ops.glsl"
#undef CT
#undef RT
#undef CF
#undef RDIV
#undef R_NONZERO
#undef R_EQUAL
#undef R_EXP
#undef R_LOG
#undef R_LOG1P
#undef R_ATAN2
#undef R_SINCOS
#undef R_SQRT
#undef R_TWO_PROD_ERR
#undef R_HUGE
#undef R_TINY
#undef R_EXP_MAX
#undef R_PI
#undef R_INF
#undef R_NAN
#undef R_UP
#undef R_UP_ROOT
#ifdef VKT_F64
double div_f64_plain(double a, double b) { return a / b; }
double sqrt_f64_plain(double x) { return sqrt(x); }
// Dekker's exact product error, as two_prod_error: Vulkan lets fma round twice.
double two_prod_error_f64(double a, double b, double p) {
  precise double ca = 134217729.0LF * a;
  precise double ah = ca - (ca - a);
  precise double al = a - ah;
  precise double cb = 134217729.0LF * b;
  precise double bh = cb - (cb - b);
  precise double bl = b - bh;
  precise double err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return err;
}
#define CT dvec2
#define RT double
#define CF(name) name##_c128
#define RDIV div_f64_plain
#define R_NONZERO f64_nonzero
#define R_EQUAL f64_equal
#define R_EXP exp_f64
#define R_LOG log_f64
#define R_LOG1P log1p_f64
#define R_ATAN2 atan2_f64
#define R_SINCOS sincos_f64
#define R_SQRT sqrt_f64_plain
#define R_TWO_PROD_ERR two_prod_error_f64
#define R_HUGE 4.49423283715578976932e307LF  // 2^1022
#define R_TINY 1.49166814624004134866e-154LF  // 2^-510
#define R_EXP_MAX 709.0LF
#define R_PI 3.14159265358979323846LF
#define R_INF d_inf()
#define R_NAN d_nan()
#define R_UP 4.149515568880993e180LF       // 2^600
#define R_UP_ROOT 4.909093465297727e-91LF  // 2^-300
#include "elementwise_complex_ops.glsl"
#endif
