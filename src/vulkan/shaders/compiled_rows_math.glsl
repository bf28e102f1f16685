// Per-element math of vkt::compile's row kernels (src/vulkan/compile/compiled_rows.cpp) that uses
// what the row already knows. Each gives exactly the bits of the function it stands for
// (elementwise_math.glsl's div_f32 and exp_f32), with less work per element; the row tests
// compare them with eager bit for bit. Needs float_bits.glsl and elementwise_math.glsl, and
// GL_EXT_control_flow_attributes: the rare paths are branches ([[dont_flatten]]), so the
// common one does not pay for them.

// div_f32(a, b) for one b per row: b's tests and its reciprocal, once.
struct RowDivisor {
  float b;
  float r;      // 1 / b, as div_normal computes it
  bool normal;  // div_f32's range for b: biased exponent in [1, 252]
  int lo;       // div_f32's fast range for a's biased exponent: lo to lo + span
  uint span;
};
RowDivisor row_divisor(float b) {
  RowDivisor d;
  d.b = b;
  precise float r = 1.0 / b;
  d.r = r;
  const int eb = int((floatBitsToUint(b) & 0x7fffffffu) >> 23);
  d.normal = eb >= 1 && eb <= 252;
  // ea >= 26 and |ea - eb| <= 100
  d.lo = max(26, eb - 100);
  d.span = uint(eb + 100 - d.lo);
  return d;
}
// In div_f32's fast range a finite nonzero a gives a normal quotient (exponent within 101 of
// 0), so div_normal's test of q is the test of a; a zero, infinite or NaN a gives q = a r.
// div_f32_row_fast is that quotient, with `slow` set where it is not div_f32's (a or the
// divisor outside the range): the caller then calls div_f32 itself (rare=once).
float div_f32_row_fast(float a, RowDivisor d, out bool slow) {
  const uint aa = floatBitsToUint(a) & 0x7fffffffu;
  const bool a_special = aa - 1u >= 0x7f7fffffu;  // 0, inf or NaN
  slow = !d.normal || !(a_special || uint(int(aa >> 23) - d.lo) <= d.span);
  precise float q = a * d.r;
  precise float residual = fma(-q, d.b, a);
  precise float refined = fma(residual, d.r, q);
  return a_special ? q : refined;
}
float div_f32_row(float a, RowDivisor d) {
  bool slow;
  const float q = div_f32_row_fast(a, d, slow);
  [[dont_flatten]] if (slow) {
    return div_f32(a, d.b);
  }
  return q;
}

// exp_reduced's er 2^n as exp_f32 forms it (er s1 s2, the two halves of 2^n).
float exp_scaled_by_halves(float er, int n) {
  const int n1 = n >> 1;
  const uint n2 = uint(n) - uint(n1);
  const float s1 = uintBitsToFloat((uint(n1) + 127u) << 23);
  const float s2 = uintBitsToFloat((n2 + 127u) << 23);
  precise float result = er * s1 * s2;
  return result;
}
// Where n is in [-125, 127] both products are exact and normal (er in [0.7, 1.42]): er with
// n added to its exponent bits.
float exp_scaled_on_bits(float er, int n) {
  return uintBitsToFloat(floatBitsToUint(er) + (uint(n) << 23));
}
// exp_f32(x), its scaling on the bits.
float exp_f32_bits(float x) {
  int n;
  const float er = exp_reduced(x, n);
  float result;
  [[dont_flatten]] if (n >= -125 && n <= 127) {
    result = exp_scaled_on_bits(er, n);
  } else {
    result = exp_scaled_by_halves(er, n);
  }
  if (isnan(x)) return x;
  if (x > 89.0) return EW_INF;
  if (x < -104.0) return 0.0;
  return result;
}
// exp_f32(x) for x <= 0 or NaN (x - max(x) over its row): n <= 0 (a NaN's n is never used),
// so no overflow test and no upper bound on n.
float exp_f32_nonpositive(float x) {
  int n;
  const float er = exp_reduced(x, n);
  float result;
  [[dont_flatten]] if (n >= -125) {
    result = exp_scaled_on_bits(er, n);
  } else {
    result = exp_scaled_by_halves(er, n);
  }
  if (isnan(x)) return x;
  if (x < -104.0) return 0.0;
  return result;
}
// The same bits without a branch (rare=once): below n = -125 (x >= -104, so n >= -151) er
// 2^(n + 64) is still normal and exact, and one multiply by 2^-64 rounds er 2^n once, as
// er s1 s2 does (its first product is exact). 0x1f800000 is 2^-64.
float exp_f32_nonpositive_flat(float x) {
  int n;
  const float er = exp_reduced(x, n);
  const bool low = n < -125;
  precise float result = exp_scaled_on_bits(er, low ? n + 64 : n) * (low ? uintBitsToFloat(0x1f800000u) : 1.0);
  if (isnan(x)) return x;
  if (x < -104.0) return 0.0;
  return result;
}

// first_rare=flag's exp_f32_nonpositive: the common path alone. Where it is not the function's
// (n below -125, x NaN) it sets `rare` and its value is not eager's: the host then runs the
// full kernel again (compiled_rows.cpp).
float exp_f32_nonpositive_flagged(float x, inout bool rare) {
  int n;
  const float er = exp_reduced(x, n);
  rare = rare || n < -125 || isnan(x);
  return exp_scaled_on_bits(er, n);
}

// reduce_max/min's combine (NaN first, -0 below +0) over a lane's elements from the
// extremes of their bits: the signed highest and lowest and the unsigned highest. Without a
// NaN the lane's max is its highest non-negative float (the signed highest, when >= 0), else
// the negative one nearest 0 (the signed lowest); its min is its most negative float (the
// unsigned highest, when the signed lowest < 0 says there is one), else the signed lowest.
// Equal bits are equal elements, so the order does not matter. A positive NaN's bits are
// above +inf's, a negative one's (unsigned) above -inf's: then eager's combine decides.
bool bits_hold_nan(int highest, uint highest_unsigned) {
  return highest > 0x7f800000 || highest_unsigned > 0xff800000u;
}
float bits_max(int highest, int lowest) {
  return intBitsToFloat(highest >= 0 ? highest : lowest);
}
float bits_min(int lowest, uint highest_unsigned) {
  return lowest < 0 ? uintBitsToFloat(highest_unsigned) : intBitsToFloat(lowest);
}
