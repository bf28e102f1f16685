// NaN tests and the min/max picks shared by the cpu's elementwise min/max, reductions,
// scans and windows (the Vulkan shaders' float_bits.glsl keeps the same rule).
#pragma once

#include <cmath>
#include <type_traits>

namespace vkt::cpu_kernels {

// x != x rather than std::isnan: GCC vectorises the comparison (an unordered compare).
template <class C>
inline bool is_nan_value(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    return x != x;
  } else {
    return false;
  }
}

// a below b in the order min/max use: IEEE 754-2019 minimum/maximum, where -0 < +0, so a
// set holding both zeros has one max (+0) and one min (-0) whatever order combines it (a
// parallel reduction on a device and the cpu's blocked loop meet the zeros in different
// orders). Otherwise the value order; false with a NaN.
template <class C>
inline bool order_less(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    const bool sign_a = std::signbit(a), sign_b = std::signbit(b);
    return (a < b) | ((a == b) & sign_a & !sign_b);
  } else {
    return a < b;
  }
}

// min/max of a and b, keeping the chosen operand's bits; a NaN `a` is taken as is and a NaN
// `b` fails the comparison, so NaN propagates.
template <class C>
inline C pick_min(C a, C b) {
  const bool below = order_less(a, b), nan = is_nan_value(a);
  return (below | nan) ? a : b;  // `|`: a branch-free select
}
template <class C>
inline C pick_max(C a, C b) {
  const bool above = order_less(b, a), nan = is_nan_value(a);
  return (above | nan) ? a : b;
}

}  // namespace vkt::cpu_kernels
