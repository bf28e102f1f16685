// Exact comparison of two tensors' element bits (NaN payloads and signed zeros included),
// for ops whose Vulkan result must be the cpu's bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

inline ::testing::AssertionResult same_bits(const Tensor& a, const Tensor& e) {
  if (a.dtype() != e.dtype() || a.shape() != e.shape()) {
    return ::testing::AssertionFailure() << "dtype/shape " << dtype_name(a.dtype()) << " "
                                         << shape_str(a.shape()) << " != " << dtype_name(e.dtype())
                                         << " " << shape_str(e.shape());
  }
  const std::vector<std::byte> ab = a.to_bytes(), eb = e.to_bytes();
  const std::size_t w = itemsize(a.dtype());
  for (std::size_t i = 0; i < ab.size(); i += w) {
    if (std::memcmp(ab.data() + i, eb.data() + i, w) != 0) {
      std::uint64_t x = 0, y = 0;
      std::memcpy(&x, ab.data() + i, w);
      std::memcpy(&y, eb.data() + i, w);
      return ::testing::AssertionFailure() << "element " << i / w << ": bits 0x" << std::hex << x
                                           << " != expected 0x" << y;
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace vkt::testing
