// Inputs, programs and a check the vkt::compile tests share (unit and conformance): a
// smooth input, softmax over rows in two forms, and a bit-for-bit comparison.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

// Values in [-3, 3] that vary along every row, no two rows alike.
inline std::vector<float> wave(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<float>(i) * 0.37f) * 3.0f;
  return v;
}

// Softmax over the last axis, as a model writes it (the reductions keep the axis).
inline Tensor softmax_rows(const Tensor& x) {
  const std::int64_t last = x.rank() - 1;
  const Tensor e = exp(subtract(x, reduce_max(x, {last}, true)));
  return divide(e, sum(e, {last}, true));
}

// Log-softmax of a matrix whose reductions drop the axis and are reshaped back.
inline Tensor log_softmax_dropped(const Tensor& x) {
  const Shape kept = {x.shape()[0], 1};
  const Tensor shifted = subtract(x, reshape(reduce_max(x, {1}, false), kept));
  return subtract(shifted, reshape(log(sum(exp(shifted), {1}, false)), kept));
}

inline void expect_same_bytes(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(a.shape(), b.shape());
  EXPECT_EQ(a.to_bytes(), b.to_bytes());
}

}  // namespace vkt::testing
