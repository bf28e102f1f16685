// Order-preserving unsigned keys for sorting: comparing keys as unsigned integers gives
// NumPy's order (NaN above +inf, -0.0 equal to 0.0). Descending order inverts the key, so
// one ascending sort of (key, index) pairs gives a stable sort in both directions.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "vkt/dtype.h"

namespace vkt::cpu_kernels {

// 32-bit keys for every dtype of at most 32 bits (halves sort as their exact f32 value).
template <class T>
using sort_key_t = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;

template <class T>
inline sort_key_t<T> sort_key(T v) {
  using K = sort_key_t<T>;
  if constexpr (is_float_v<T>) {
    using F = std::conditional_t<std::is_same_v<T, double>, double, float>;
    using Bits = std::conditional_t<std::is_same_v<F, double>, std::uint64_t, std::uint32_t>;
    const F f = static_cast<F>(static_cast<compute_t<T>>(v));
    constexpr Bits sign = Bits{1} << (sizeof(Bits) * 8 - 1);
    if (std::isnan(f)) return static_cast<K>(~Bits{0});
    if (f == F(0)) return static_cast<K>(sign);  // -0.0 and 0.0 are one key
    Bits bits;
    std::memcpy(&bits, &f, sizeof(F));
    // Negative: reverse their order by flipping all bits; positive: set the sign bit.
    return static_cast<K>((bits & sign) ? ~bits : (bits | sign));
  } else if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    constexpr U sign = U{1} << (sizeof(U) * 8 - 1);
    return static_cast<K>(static_cast<U>(static_cast<U>(v) ^ sign));
  } else {
    return static_cast<K>(v);
  }
}

}  // namespace vkt::cpu_kernels
