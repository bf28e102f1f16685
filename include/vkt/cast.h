// Value conversion with Nx's as_type semantics: float to integer saturates (NaN gives 0),
// integer to integer wraps modulo 2^bits, anything to float rounds to nearest.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "vkt/dtype.h"

namespace vkt {

template <class To, class From>
To convert(From v) {
  using F = compute_t<From>;
  using T = compute_t<To>;
  F x = static_cast<F>(v);
  if constexpr (std::is_floating_point_v<F> && std::is_integral_v<T>) {
    if (std::isnan(x)) return To(T(0));
    // Compare in long double so the bound 2^63 - 1 is not rounded into overflow.
    const long double lx = static_cast<long double>(x);
    if (lx <= static_cast<long double>(std::numeric_limits<T>::min()))
      return To(std::numeric_limits<T>::min());
    if (lx >= static_cast<long double>(std::numeric_limits<T>::max()))
      return To(std::numeric_limits<T>::max());
    return To(static_cast<T>(x));
  } else {
    return To(static_cast<T>(x));
  }
}

}  // namespace vkt
