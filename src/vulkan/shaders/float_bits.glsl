// Decisions about floats made on their bits, so a device that flushes subnormals in float
// arithmetic (NVIDIA, f32) gives the cpu's answer: a subnormal is nonzero, orders between 0
// and the smallest normal, and a selected operand keeps its bits.
bool f32_is_nan(float x) { return (floatBitsToUint(x) & 0x7fffffffu) > 0x7f800000u; }
bool f32_nonzero(float x) { return (floatBitsToUint(x) & 0x7fffffffu) != 0u; }  // NaN is
bool f32_subnormal(float x) {
  const uint a = floatBitsToUint(x) & 0x7fffffffu;
  return a != 0u && a < 0x00800000u;
}
// Sign-magnitude bits as an int ordered like the values; +0 and -0 both give 0.
int f32_key(float x) {
  const uint u = floatBitsToUint(x);
  const int m = int(u & 0x7fffffffu);
  return (u & 0x80000000u) != 0u ? -m : m;
}
// IEEE ordered comparisons: false with a NaN.
bool f32_less(float a, float b) { return !f32_is_nan(a) && !f32_is_nan(b) && f32_key(a) < f32_key(b); }
bool f32_equal(float a, float b) { return !f32_is_nan(a) && !f32_is_nan(b) && f32_key(a) == f32_key(b); }
// The order min/max use (IEEE 754-2019 minimum/maximum, as src/cpu/float_order.h): -0 below
// +0, so both zeros give one answer whatever order a parallel combine meets them in.
int f32_order_key(float x) {
  const uint u = floatBitsToUint(x);
  const int m = int(u & 0x7fffffffu);
  return (u & 0x80000000u) != 0u ? -m - 1 : m;
}
bool f32_order_less(float a, float b) {
  return !f32_is_nan(a) && !f32_is_nan(b) && f32_order_key(a) < f32_order_key(b);
}
// min/max as the cpu writes them ((a below b || isnan(a)) ? a : b), the chosen operand's bits.
float f32_min(float a, float b) { return (f32_order_less(a, b) || f32_is_nan(a)) ? a : b; }
float f32_max(float a, float b) { return (f32_order_less(b, a) || f32_is_nan(a)) ? a : b; }

#ifdef VKT_F64
// The same for f64 (the f64 variants always have 64-bit integers).
uint64_t f64_bits(double x) { return packUint2x32(unpackDouble2x32(x)); }
double f64_from_bits(uint64_t u) { return packDouble2x32(unpackUint2x32(u)); }
// trunc on the bits: lavapipe's f64 trunc returns large values unchanged (1.0296450975e8) and
// drops the sign of -0.
double trunc_f64(double x) {
  const uint64_t u = f64_bits(x);
  const int e = int((u >> 52) & 0x7ffUL) - 1023;
  if (e >= 52) return x;  // already integral, inf or NaN
  if (e < 0) return f64_from_bits(u & 0x8000000000000000UL);  // |x| < 1: zero of x's sign
  return f64_from_bits(u & ~((1UL << uint(52 - e)) - 1UL));
}
// Whether trunc_f64 drops a nonzero fraction, on the bits (a subnormal x counts).
bool f64_has_fraction(double x) {
  const uint64_t u = f64_bits(x);
  const int e = int((u >> 52) & 0x7ffUL) - 1023;
  if (e >= 52) return false;
  if (e < 0) return (u & 0x7fffffffffffffffUL) != 0UL;
  return (u & ((1UL << uint(52 - e)) - 1UL)) != 0UL;
}
bool f64_is_nan(double x) { return (f64_bits(x) & 0x7fffffffffffffffUL) > 0x7ff0000000000000UL; }
bool f64_nonzero(double x) { return (f64_bits(x) & 0x7fffffffffffffffUL) != 0UL; }
int64_t f64_key(double x) {
  const uint64_t u = f64_bits(x);
  const int64_t m = int64_t(u & 0x7fffffffffffffffUL);
  return (u >> 63) != 0UL ? -m : m;
}
bool f64_less(double a, double b) { return !f64_is_nan(a) && !f64_is_nan(b) && f64_key(a) < f64_key(b); }
bool f64_equal(double a, double b) { return !f64_is_nan(a) && !f64_is_nan(b) && f64_key(a) == f64_key(b); }
int64_t f64_order_key(double x) {
  const uint64_t u = f64_bits(x);
  const int64_t m = int64_t(u & 0x7fffffffffffffffUL);
  return (u >> 63) != 0UL ? -m - 1L : m;
}
bool f64_order_less(double a, double b) {
  return !f64_is_nan(a) && !f64_is_nan(b) && f64_order_key(a) < f64_order_key(b);
}
double f64_min(double a, double b) { return (f64_order_less(a, b) || f64_is_nan(a)) ? a : b; }
double f64_max(double a, double b) { return (f64_order_less(b, a) || f64_is_nan(a)) ? a : b; }
#endif
