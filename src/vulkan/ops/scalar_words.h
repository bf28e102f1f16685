// A scalar's bit pattern in dtype d as 32-bit words, low first (pad's fill, full's pattern):
// up to four words (c128). Words past the dtype's size are zero.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "vkt/dtype.h"
#include "vkt/scalar.h"

namespace vkt::vk {

inline std::array<std::uint32_t, 4> scalar_words(const Scalar& value, DType d) {
  std::array<std::uint32_t, 4> words{};
  visit_any_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    static_assert(sizeof(T) <= sizeof(words));
    const T v = value.as<T>();
    std::memcpy(words.data(), &v, sizeof(T));
  });
  return words;
}

}  // namespace vkt::vk
