// Exact comparison of two tensors' element bits (NaN payloads and signed zeros included),
// for ops whose Vulkan result must be the cpu's bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

inline ::testing::AssertionResult same_bits(const Tensor& a, const Tensor& e) {
  if (a.dtype() != e.dtype() || a.shape() != e.shape()) {
    return ::testing::AssertionFailure()
           << "dtype/shape " << dtype_name(a.dtype()) << " " << shape_str(a.shape())
           << " != " << dtype_name(e.dtype()) << " " << shape_str(e.shape());
  }
  const std::vector<std::byte> ab = a.to_bytes(), eb = e.to_bytes();
  const std::size_t w = itemsize(a.dtype());
  for (std::size_t i = 0; i < ab.size(); i += w) {
    if (std::memcmp(ab.data() + i, eb.data() + i, w) != 0) {
      std::uint64_t x = 0, y = 0;
      std::memcpy(&x, ab.data() + i, w);
      std::memcpy(&y, eb.data() + i, w);
      return ::testing::AssertionFailure()
             << "element " << i / w << ": bits 0x" << std::hex << x << " != expected 0x" << y;
    }
  }
  return ::testing::AssertionSuccess();
}

// Float results compared as values widened to f64, bit for bit, except that a NaN equals any
// NaN (compiled kernels against eager, where a NaN's payload may differ); the first five
// differences are reported.
inline void expect_same_values(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  const std::vector<double> g = as_type(got, DType::f64).to_vector<double>();
  const std::vector<double> w = as_type(want, DType::f64).to_vector<double>();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < w.size() && wrong < 5; ++i) {
    const bool same =
        std::isnan(w[i]) ? std::isnan(g[i])
                         : std::bit_cast<std::uint64_t>(g[i]) == std::bit_cast<std::uint64_t>(w[i]);
    if (!same) {
      ++wrong;
      ADD_FAILURE() << what << " at " << i << ": " << g[i] << " vs " << w[i];
    }
  }
}

}  // namespace vkt::testing
