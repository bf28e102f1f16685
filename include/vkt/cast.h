// Value conversion with Nx's as_type semantics: float to integer saturates (NaN gives 0),
// integer to integer wraps modulo 2^bits, anything to float rounds to nearest; complex to
// real takes the real part, real to complex has imaginary part 0.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "vkt/dtype.h"

namespace vkt {

template <class To, class From>
To convert_real(From v);

template <class To, class From>
To convert(From v) {
  if constexpr (is_complex_v<To> && is_complex_v<From>) {
    using R = typename To::value_type;
    return To(static_cast<R>(v.real()), static_cast<R>(v.imag()));
  } else if constexpr (is_complex_v<To>) {
    using R = typename To::value_type;
    return To(convert<R>(v), R(0));
  } else if constexpr (is_complex_v<From>) {
    return convert<To>(v.real());
  } else {
    return convert_real<To>(v);
  }
}

template <class To, class From>
To convert_real(From v) {
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
