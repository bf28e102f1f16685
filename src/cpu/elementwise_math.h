// Scalar math the elementwise kernels inline into their loops: a branch-free exp/log for
// float (so the loops vectorise without -ffast-math), erf_inv, and the wrapping integer
// helpers. Every function is exact to its type's precision or states its error bound.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cpu/float_order.h"

namespace vkt::cpu_kernels {

// cond ? a : b by bit masks. The ternary form lets GCC sink the work feeding the other arm
// into a branch, and without -fno-trapping-math it then refuses to vectorise the loop.
inline float select_bits(bool cond, float a, float b) {
  const std::uint32_t mask = 0u - static_cast<std::uint32_t>(cond);
  return std::bit_cast<float>((std::bit_cast<std::uint32_t>(a) & mask) |
                              (std::bit_cast<std::uint32_t>(b) & ~mask));
}

// exp for float: Cody-Waite range reduction x = n ln2 + r, |r| <= ln2/2, a degree-7
// polynomial for e^r (Cephes' coefficients), and 2^n applied in two halves so results in
// the subnormal range are rounded once. Error <= 2 ulp over the whole range; exact for
// +-inf (inf, 0), NaN, overflow (inf) and underflow (0). No branches: the loop vectorises.
inline float exp_f32(float x) {
  // Inputs outside [-104, 89] are fixed up at the end, not clamped up front: a clamp lets
  // the compiler thread constant results through the loop and then refuse to vectorise it.
  // Round x/ln2 to an integer with the 1.5 * 2^23 shifter (no float -> int conversion).
  const float shifter = 12582912.0f;
  const float t = x * 1.44269504088896341f + shifter;
  const float n = t - shifter;
  // Unsigned arithmetic: out-of-range inputs give garbage here but never overflow.
  const std::uint32_t nu = std::bit_cast<std::uint32_t>(t) - 0x4b400000u;
  const std::int32_t ni = static_cast<std::int32_t>(nu);
  // ln2 split so n * 0.693359375 is exact for |n| <= 2^15.
  const float r = (x - n * 0.693359375f) - n * -2.12194440e-4f;
  const float r2 = r * r;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float er = p * r2 + r + 1.0f;
  // 2^n in two halves (each a normal number for n in [-150, 128]).
  const std::int32_t n1 = ni >> 1;
  const std::uint32_t n2 = nu - static_cast<std::uint32_t>(n1);
  const float s1 = std::bit_cast<float>((static_cast<std::uint32_t>(n1) + 127u) << 23);
  const float s2 = std::bit_cast<float>((n2 + 127u) << 23);
  const float result = er * s1 * s2;
  // NaN fails both tests and stays NaN.
  const float big = select_bits(x > 89.0f, std::numeric_limits<float>::infinity(), result);
  return select_bits(x < -104.0f, 0.0f, big);
}

// tanh for float, branch-free: for |x| < 0.625 Cephes' odd polynomial |x| + |x| z P(z),
// z = x^2; above, 1 - 2 / (e^{2|x|} + 1) with exp_f32; the sign of x put back last, so
// tanh(-0) = -0. Error 1.33 ulp at most, checked against double tanh for every float;
// tanh(+-inf) = +-1, NaN passes through. (libm's tanh per element: 1M f32 took 12.7 ms
// on one H200-host core.)
inline float tanh_f32(float x) {
  const std::uint32_t sign = std::bit_cast<std::uint32_t>(x) & 0x80000000u;
  const float ax = std::bit_cast<float>(std::bit_cast<std::uint32_t>(x) ^ sign);
  const float z = ax * ax;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = ax + ax * (z * p);
  const float large = 1.0f - 2.0f / (exp_f32(ax + ax) + 1.0f);
  const float magnitude = select_bits(ax < 0.625f, small, large);
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(magnitude) | sign);
}

// log for float: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log(m) by Cephes' degree-9
// polynomial in m - 1. Error <= 2 ulp; log(0) = -inf, log(x < 0) = NaN, log(inf) = inf,
// NaN passes through; subnormal inputs are scaled by 2^23 first. No branches.
inline float log_f32(float x) {
  // Branch-free scaling of subnormals (a select with constant arms would be threaded).
  const std::int32_t subnormal = x < 1.17549435e-38f;
  const float xs = x * (1.0f + static_cast<float>(subnormal) * 8388607.0f);
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(xs);
  std::int32_t e = static_cast<std::int32_t>((bits >> 23) & 0xffu) - 126 - 23 * subnormal;
  float m = std::bit_cast<float>((bits & 0x007fffffu) | 0x3f000000u);  // [0.5, 1)
  const std::int32_t low = m < 0.707106781186547524f;
  e -= low;
  m = m * (1.0f + static_cast<float>(low)) - 1.0f;  // exact: doubling is exact
  const float fe = static_cast<float>(e);
  const float z = m * m;
  float y = 7.0376836292e-2f;
  y = y * m - 1.1514610310e-1f;
  y = y * m + 1.1676998740e-1f;
  y = y * m - 1.2420140846e-1f;
  y = y * m + 1.4249322787e-1f;
  y = y * m - 1.6668057665e-1f;
  y = y * m + 2.0000714765e-1f;
  y = y * m - 2.4999993993e-1f;
  y = y * m + 3.3333331174e-1f;
  y = y * m * z;
  y += -2.12194440e-4f * fe;
  y += -0.5f * z;
  float result = m + y + 0.693359375f * fe;
  result = select_bits(x == std::numeric_limits<float>::infinity(), x, result);
  result = select_bits(x == 0.0f, -std::numeric_limits<float>::infinity(), result);
  result = select_bits(x < 0.0f, std::numeric_limits<float>::quiet_NaN(), result);
  return select_bits(std::isnan(x), x, result);
}

// Inverse error function in double: Giles' approximation ("Approximating the erfinv
// function", GPU Computing Gems, 2011) refined by Newton steps on erf, or on erfc near
// +-1 where 1 - |x| is exact and erf itself has no digits left. Exact to double precision.
// kForFloat: the result is rounded to f32/f16/bf16, and one Newton step (error ~1e-14)
// already settles that rounding, where a double result needs three.
template <bool kForFloat = false>
inline double erf_inv_f64(double x) {
  if (std::isnan(x) || x < -1.0 || x > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 1.0) return std::numeric_limits<double>::infinity();
  if (x == -1.0) return -std::numeric_limits<double>::infinity();
  if (x == 0.0) return x;  // keeps the sign of zero
  const double ax = std::fabs(x);
  double w = -std::log((1.0 - ax) * (1.0 + ax));
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double y = p * ax;
  const double two_over_sqrt_pi = 1.12837916709551257390;
  if (ax <= 0.5) {
    // Newton on erf(y) = ax; Giles' start is good to ~1e-7, so 2 steps reach double.
    for (int step = 0; step < (kForFloat ? 1 : 3); ++step) {
      y -= (std::erf(y) - ax) / (two_over_sqrt_pi * std::exp(-y * y));
    }
  } else {
    // Newton on log(erfc(y)) = log(1 - ax): nearly linear in the tail, where the
    // approximation is extrapolated (|x| beyond 1 - 2^-24) and plain Newton crawls.
    const double log_tail = std::log(1.0 - ax);
    for (int step = 0; step < 12; ++step) {
      const double c = std::erfc(y);
      const double dy = (std::log(c) - log_tail) * c / (two_over_sqrt_pi * std::exp(-y * y));
      y += dy;
      if (std::fabs(dy) <= (kForFloat ? 1e-12 : 1e-17) * y) break;
    }
  }
  return x < 0 ? -y : y;
}

// floor, ceil and round (half away from zero) without libm, whose calls do not vectorise
// on baseline x86-64 (no SSE4.1 roundps). (|x| + 2^p) - 2^p rounds |x| < 2^p to an integer
// (p = 23 for float, 52 for double; default rounding mode), corrected to the truncation;
// larger |x|, inf and NaN are already integral and come back as is. copysign gives zero
// results the sign libm gives them (floor(-0.0) = -0, ceil(-0.5) = -0). The selects
// vectorise where -fno-trapping-math is on (elementwise_unary.cpp).
template <class C>
struct Integral {
  static constexpr C kFrom = sizeof(C) == 4 ? C(8388608.0) : C(4503599627370496.0);
  // trunc(|x|) for |x| < kFrom.
  static C trunc_magnitude(C ax) {
    const C r = (ax + kFrom) - kFrom;
    return r > ax ? r - C(1) : r;
  }
};
template <class C>
inline C floor_value(C x) {
  const C ax = std::fabs(x);
  const C t = std::copysign(Integral<C>::trunc_magnitude(ax), x);
  const C f = std::copysign(t > x ? t - C(1) : t, x);
  return ax < Integral<C>::kFrom ? f : x;
}
template <class C>
inline C ceil_value(C x) {
  const C ax = std::fabs(x);
  const C t = std::copysign(Integral<C>::trunc_magnitude(ax), x);
  const C c = std::copysign(t < x ? t + C(1) : t, x);
  return ax < Integral<C>::kFrom ? c : x;
}
template <class C>
inline C round_half_away(C x) {
  const C ax = std::fabs(x);
  const C t = Integral<C>::trunc_magnitude(ax);
  const C r = std::copysign(ax - t >= C(0.5) ? t + C(1) : t, x);  // ax - t is exact
  return ax < Integral<C>::kFrom ? r : x;
}

// Bit counts by shifts and masks (SWAR): std::popcount is a libgcc call without -mpopcnt,
// and neither it nor countl_zero vectorises on baseline x86-64.
template <class U>
inline U population_count_bits(U v) {
  using W = std::conditional_t<(sizeof(U) < 4), std::uint32_t, U>;  // no int promotion
  W x = v;
  x = x - ((x >> 1) & static_cast<W>(0x5555555555555555ull));
  x = (x & static_cast<W>(0x3333333333333333ull)) +
      ((x >> 2) & static_cast<W>(0x3333333333333333ull));
  x = (x + (x >> 4)) & static_cast<W>(0x0f0f0f0f0f0f0f0full);
  x += x >> 8;
  x += x >> 16;
  if constexpr (sizeof(W) == 8) x += x >> 32;
  return static_cast<U>(x & 0x7fu);
}
template <class U>
inline U leading_zeros_bits(U v) {
  using W = std::conditional_t<(sizeof(U) < 4), std::uint32_t, U>;
  W x = v;
  x |= x >> 1;  // smear the highest set bit down
  x |= x >> 2;
  x |= x >> 4;
  if constexpr (sizeof(U) >= 2) x |= x >> 8;
  if constexpr (sizeof(U) >= 4) x |= x >> 16;
  if constexpr (sizeof(U) == 8) x |= x >> 32;
  return static_cast<U>(sizeof(U) * 8 - population_count_bits(static_cast<U>(x)));
}

// Wider unsigned type for wrapping arithmetic: 8/16-bit values would otherwise be promoted
// to int, where a product can overflow (undefined behaviour).
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) < 4), std::uint32_t, std::make_unsigned_t<T>>;

template <class T>
T wrapping_add(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
}
template <class T>
T wrapping_sub(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
}
template <class T>
T wrapping_mul(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
}

// Integer pow by squaring, wrapping; a negative exponent gives 0 except for bases 1 and -1.
template <class T>
T integer_pow(T base, T exponent) {
  if constexpr (std::is_signed_v<T>) {
    if (exponent < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exponent & 1) ? T(-1) : T(1);
      return 0;
    }
  }
  wrap_t<T> result = 1, b = static_cast<wrap_t<T>>(base);
  auto e = static_cast<std::make_unsigned_t<T>>(exponent);
  while (e != 0) {
    if (e & 1u) result = static_cast<wrap_t<T>>(result * b);
    b = static_cast<wrap_t<T>>(b * b);
    e = static_cast<std::make_unsigned_t<T>>(e >> 1);
  }
  return static_cast<T>(result);
}

// Truncating division; by zero gives 0 and MIN / -1 wraps to MIN.
template <class T>
T integer_quotient(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return wrapping_sub(T(0), a);
  }
  return static_cast<T>(a / b);
}

// Remainder with the sign of the dividend; by zero gives 0 and MIN % -1 gives 0.
template <class T>
T integer_remainder(T a, T b) {
  if (b == 0) return 0;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
  }
  return static_cast<T>(a % b);
}

// Shifts with a count outside [0, bits): 0 for left shifts and unsigned right shifts;
// a signed right shift is arithmetic and saturates to 0 or -1 by the sign.
template <class T>
T shift_left(T a, T count) {
  constexpr T bits = static_cast<T>(sizeof(T) * 8);
  if constexpr (std::is_signed_v<T>) {
    if (count < 0) return 0;
  }
  if (count >= bits) return 0;
  return static_cast<T>(static_cast<wrap_t<T>>(a) << count);
}
template <class T>
T shift_right(T a, T count) {
  constexpr T bits = static_cast<T>(sizeof(T) * 8);
  if constexpr (std::is_signed_v<T>) {
    if (count < 0 || count >= bits) return a < 0 ? T(-1) : T(0);
    return static_cast<T>(a >> count);  // arithmetic for negative values since C++20
  } else {
    if (count >= bits) return 0;
    return static_cast<T>(a >> count);
  }
}

}  // namespace vkt::cpu_kernels
