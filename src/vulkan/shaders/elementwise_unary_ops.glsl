// The elementwise unary ops' functions, shared by elementwise_unary.comp and the kernels
// vkt::compile generates (src/vulkan/compile/compiled.cpp), so both compute alike. Needs
// op_codes.glsl (OP_<NAME>, generated from the op table), common.glsl, float_bits.glsl,
// elementwise_math.glsl (and elementwise_math_f64.glsl with VKT_F64) first.
// A generated kernel defines VKT_ONLY_OPS and VKT_KEEP_OP_<NAME> per op it calls: the other
// cases of float_function and double_function are left out, since a driver inlines every case's
// math before it folds the constant op code (most of a first call's pipeline creation).
// The driver then optimises the same function in two contexts, and a step it may contract
// or rewrite (an a * b + c into an fma, a division by a constant into a product) can round
// differently in each: steps whose rounding the result depends on are `precise`
// (cbrt's Newton steps and acosh's argument differed by an ulp fused on lavapipe;
// tests/conformance/compile_math_test.cpp checks every op both ways).
const float LN2 = 0.693147180559945309;

// sinh through expm1 (no cancellation near 0). Past 88 exp(x) overflows while sinh(x) fits
// (up to 89.4): exp(x/2) (x/2 exact) times half of itself, in an order `precise` keeps (a
// compiler free to reassociate formed t * t first and gave sinh(89) = inf).
float half_exp_squared(float ax) {
  const float t = exp_f32(0.5 * ax);
  precise float h = 0.5 * t;
  precise float r = h * t;
  return r;
}
float sinh_f32(float x) {
  const float ax = abs(x);
  float r;
  if (ax > 88.0) {
    r = half_exp_squared(ax);
  } else {
    const float em1 = expm1_f32(ax);
    r = 0.5 * (em1 + em1 / (em1 + 1.0));
  }
  return copy_sign(r, x);
}
float cosh_f32(float x) {
  const float ax = abs(x);
  if (ax > 88.0) return half_exp_squared(ax);
  const float e = exp_f32(ax);
  return 0.5 * (e + 1.0 / e);
}
float tanh_f32(float x) {
  const float ax = abs(x);
  if (ax > 10.0) return copy_sign(1.0, x);  // tanh(10) rounds to 1 in f32
  const float em1 = expm1_f32(2.0 * ax);
  return copy_sign(em1 / (em1 + 2.0), x);
}
float asin_f32(float x) {
  if (!(abs(x) <= 1.0)) return EW_NAN;
  return atan_f32(x / sqrt((1.0 - x) * (1.0 + x)));
}
float acos_f32(float x) {
  if (!(abs(x) <= 1.0)) return EW_NAN;
  return 2.0 * atan_f32(sqrt((1.0 - x) / (1.0 + x)));
}
// acosh(1 + t) = log1p(t + sqrt(2t + t^2)): exact near 1; log(2x) where x^2 would overflow.
float acosh_f32(float x) {
  if (!(x >= 1.0)) return EW_NAN;
  if (x > 268435456.0) return log_f32(x) + LN2;
  precise float t = x - 1.0;
  precise float u = t + sqrt(2.0 * t + t * t);
  return log1p_f32(u);
}
float asinh_f32(float x) {
  const float ax = abs(x);
  if (isnan(x) || isinf(x)) return x;
  float r;
  if (ax > 268435456.0) {
    r = log_f32(ax) + LN2;
  } else {
    precise float a2 = ax * ax;
    precise float u = ax + a2 / (1.0 + sqrt(1.0 + a2));
    r = log1p_f32(u);
  }
  return copy_sign(r, x);
}
float atanh_f32(float x) {
  const float ax = abs(x);
  if (!(ax <= 1.0)) return EW_NAN;
  return copy_sign(0.5 * log1p_f32(2.0 * ax / (1.0 - ax)), x);
}
// cbrt: exp2(log2|x| / 3) then two Newton steps. A subnormal x is scaled by 2^72 on the bits
// (cbrt(1e-40) = 4.6e-14 is normal; a flushing device would give 0).
float cbrt_f32(float x) {
  if (!f32_nonzero(x) || isnan(x) || isinf(x)) return x;
  const bool sub = f32_subnormal(x);
  int e;
  const float ax = sub ? ldexp_bits(mantissa_of(floatBitsToUint(x) & 0x7fffffffu, e), e + 72)
                       : abs(x);
  precise float y = exp2(log2(ax) / 3.0);
  y = y - (y - ax / (y * y)) / 3.0;
  y = y - (y - ax / (y * y)) / 3.0;
  return copy_sign(sub ? y * 5.9604644775390625e-8 : y, x);  // 2^-24
}
// sqrt and 1/sqrt: a subnormal x is scaled by 2^64 on the bits and the root by 2^-32 / 2^32
// (both exact), so a flushing device still sees the value.
float sqrt_f32(float x, bool reciprocal) {
  if (!f32_subnormal(x)) return reciprocal ? 1.0 / sqrt(x) : sqrt(x);
  int e;
  const float m = mantissa_of(floatBitsToUint(x) & 0x7fffffffu, e);
  const float r = sqrt(copy_sign(ldexp_bits(m, e + 64), x));  // NaN for a negative x
  return reciprocal ? (1.0 / r) * 4294967296.0 : r * 2.3283064365386963e-10;
}
// sign, ceil, floor, round depend only on the sign and on |x| < 1 for a subnormal x: the
// smallest normal stands in for it, so a flushing device answers as the cpu.
float unflushed(float x) { return f32_subnormal(x) ? copy_sign(1.17549435e-38, x) : x; }

float float_function(uint op, float x) {
  switch (op) {
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_EXP)
    case OP_EXP: return exp_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_EXPM1)
    case OP_EXPM1: return expm1_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_LOG)
    case OP_LOG: return log_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_LOG1P)
    case OP_LOG1P: return log1p_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SIGMOID)
    case OP_SIGMOID: return 1.0 / (1.0 + exp_f32(-x));
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_COS)
    case OP_COS: {
      float s, c;
      sincos_f32(x, s, c);
      return c;
    }
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SIN)
    case OP_SIN: {
      float s, c;
      sincos_f32(x, s, c);
      return s;
    }
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_TAN)
    case OP_TAN: {
      float s, c;
      sincos_f32(x, s, c);
      return s / c;
    }
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_COSH)
    case OP_COSH: return cosh_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SINH)
    case OP_SINH: return sinh_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_TANH)
    case OP_TANH: return tanh_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ACOS)
    case OP_ACOS: return acos_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ASIN)
    case OP_ASIN: return asin_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ATAN)
    case OP_ATAN: return atan_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ACOSH)
    case OP_ACOSH: return acosh_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ASINH)
    case OP_ASINH: return asinh_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ATANH)
    case OP_ATANH: return atanh_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SQRT)
    case OP_SQRT: return sqrt_f32(x, false);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_RSQRT)
    case OP_RSQRT: return sqrt_f32(x, true);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_CBRT)
    case OP_CBRT: return cbrt_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ERF)
    case OP_ERF: return erf_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ERFC)
    case OP_ERFC: return erfc_f32(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ERF_INV)
    case OP_ERF_INV: return erf_inv_f32(x);
#endif
    // abs and negate on the bits: a float abs/negate may flush a subnormal.
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ABS)
    case OP_ABS: return uintBitsToFloat(floatBitsToUint(x) & 0x7fffffffu);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_CEIL)
    case OP_CEIL: return ceil(unflushed(x));
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_FLOOR)
    case OP_FLOOR: return floor(unflushed(x));
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ROUND)
    case OP_ROUND: return round_away_f32(unflushed(x));
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_NEGATE)
    case OP_NEGATE: return uintBitsToFloat(floatBitsToUint(x) ^ 0x80000000u);
#endif
    // NaN stays NaN and zeros keep their sign; decided on the bits.
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SIGN)
    case OP_SIGN: return (f32_nonzero(x) && !isnan(x)) ? copy_sign(1.0, x) : x;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_IMAG)
    case OP_IMAG: return 0.0;
#endif
    // The angle of x + 0i, on the sign bit: pi for negative x and -0.
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_PHASE)
    case OP_PHASE: return isnan(x) ? x : ((floatBitsToUint(x) >> 31) != 0u ? 3.14159265358979 : 0.0);
#endif
    default: return x;  // conjugate, real
  }
}

#ifdef VKT_F64
double double_function(uint op, double x) {
  switch (op) {
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_EXP)
    case OP_EXP: return exp_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_EXPM1)
    case OP_EXPM1: return expm1_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_LOG)
    case OP_LOG: return log_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_LOG1P)
    case OP_LOG1P: return log1p_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SIGMOID)
    case OP_SIGMOID: return 1.0LF / (1.0LF + exp_f64(-x));
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_COSH)
    case OP_COSH: return cosh_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SINH)
    case OP_SINH: return sinh_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_TANH)
    case OP_TANH: return tanh_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ACOSH)
    case OP_ACOSH: return acosh_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ASINH)
    case OP_ASINH: return asinh_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ATANH)
    case OP_ATANH: return atanh_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_CBRT)
    case OP_CBRT: return cbrt_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ATAN)
    case OP_ATAN: return atan_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SIN) || defined(VKT_KEEP_OP_COS) || defined(VKT_KEEP_OP_TAN)
    case OP_SIN:
    case OP_COS:
    case OP_TAN: {
      double sv, cv;
      sincos_f64(x, sv, cv);
      return op == OP_SIN ? sv : op == OP_COS ? cv : sv / cv;
    }
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ASIN)
    case OP_ASIN: return asin_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ACOS)
    case OP_ACOS: return acos_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SQRT)
    case OP_SQRT: return sqrt(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_RSQRT)
    case OP_RSQRT: return 1.0LF / sqrt(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ABS)
    case OP_ABS: return abs(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_CEIL)
    case OP_CEIL: return ceil_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_FLOOR)
    case OP_FLOOR: return floor_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_ROUND)
    case OP_ROUND: return round_away_f64(x);
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_NEGATE)
    case OP_NEGATE: return -x;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_SIGN)
    case OP_SIGN: return (f64_nonzero(x) && !isnan(x)) ? ((f64_bits(x) >> 63) != 0UL ? -1.0LF : 1.0LF) : x;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_IMAG)
    case OP_IMAG: return 0.0LF;
#endif
#if !defined(VKT_ONLY_OPS) || defined(VKT_KEEP_OP_PHASE)
    case OP_PHASE: return isnan(x) ? x : ((f64_bits(x) >> 63) != 0UL ? 3.141592653589793LF : 0.0LF);
#endif
    default: return x;  // conjugate, real
  }
}
#endif

// Integer ops on the value sign- or zero-extended to 32 bits (8/16/32-bit dtypes);
// `mask` keeps the dtype's bits for the bit counts.
int signed_function(uint op, int x, uint bits) {
  const uint mask = bits == 32u ? 0xffffffffu : (1u << bits) - 1u;
  switch (op) {
    case OP_ABS: return x < 0 ? -x : x;  // abs(MIN) wraps to MIN at the store
    case OP_NEGATE: return -x;
    case OP_SIGN: return x > 0 ? 1 : (x < 0 ? -1 : 0);
    case OP_BITWISE_NOT: return ~x;
    case OP_COUNT_LEADING_ZEROS: return int(bits) - 1 - findMSB(uint(x) & mask);
    case OP_POPULATION_COUNT: return bitCount(uint(x) & mask);
    case OP_IMAG: return 0;
    default: return x;  // ceil, floor, round, conjugate, real
  }
}
uint unsigned_function(uint op, uint x, uint bits) {
  switch (op) {
    case OP_NEGATE: return -x;
    case OP_SIGN: return x > 0u ? 1u : 0u;
    case OP_BITWISE_NOT: return ~x;
    case OP_COUNT_LEADING_ZEROS: return uint(int(bits) - 1 - findMSB(x));
    case OP_POPULATION_COUNT: return uint(bitCount(x));
    case OP_IMAG: return 0u;
    default: return x;  // abs, ceil, floor, round, conjugate, real
  }
}
#ifdef VKT_I64
uint64_t bits64_function(uint op, uint64_t x, bool is_signed) {
  const uvec2 w = unpackUint2x32(x);  // (low, high)
  switch (op) {
    case OP_ABS: return (is_signed && int64_t(x) < 0l) ? -x : x;
    case OP_NEGATE: return -x;
    case OP_SIGN:
      if (is_signed) return uint64_t(int64_t(x) > 0l ? 1l : (int64_t(x) < 0l ? -1l : 0l));
      return x > 0ul ? 1ul : 0ul;
    case OP_BITWISE_NOT: return ~x;
    case OP_COUNT_LEADING_ZEROS:
      return uint64_t(w.y != 0u ? 31 - findMSB(w.y) : 63 - findMSB(w.x));
    case OP_POPULATION_COUNT: return uint64_t(bitCount(w.x) + bitCount(w.y));
    case OP_IMAG: return 0ul;
    default: return x;
  }
}
#endif
