// What the conv tests share (conv_test.cpp, conv_winograd_test.cpp): deterministic operands,
// their magnitudes, and the comparison with the cpu's result.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt::testing::conv_check {

// Deterministic values in [-1, 1).
inline Tensor make(const Shape& shape, DType d, std::uint32_t seed) {
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  std::uint32_t s = seed * 2654435761u + 12345u;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<double>(s >> 8) / static_cast<double>(1u << 23) - 1.0;
  }
  return as_type(from_vector(v, shape), d);
}

inline Tensor magnitudes(const Tensor& t) {
  std::vector<double> v = as_doubles(t);
  for (double& x : v) x = std::fabs(x);
  return from_vector(v, t.shape());
}

// Relative part growing with sqrt(K), absolute part relative to sum |x||w|; NaN where the cpu
// has NaN, the same infinity where it has one.
inline ::testing::AssertionResult conv_close(const Tensor& got, const Tensor& want,
                                             const Tensor& mag, DType d, std::int64_t k) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    return ::testing::AssertionFailure()
           << "got " << dtype_name(got.dtype()) << shape_str(got.shape()) << ", want "
           << dtype_name(want.dtype()) << shape_str(want.shape());
  }
  const double root = std::sqrt(static_cast<double>(std::max<std::int64_t>(k, 1)));
  const double rtol = d == DType::f64    ? 1e-13 * root
                      : d == DType::f16  ? 2e-3
                      : d == DType::bf16 ? 1.6e-2
                                         : 1e-5 * root;
  const double atol = d == DType::f64 ? 1e-15 * root : 1e-5 * root;
  const std::vector<double> g = as_doubles(got), w = as_doubles(want), m = as_doubles(mag);
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(w[i]) && std::isnan(g[i])) continue;
    if (std::isinf(w[i]) && g[i] == w[i]) continue;
    const double bound = rtol * std::fabs(w[i]) + atol * m[i];
    if (!(std::fabs(g[i] - w[i]) <= bound)) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << g[i] << " vs cpu " << w[i] << " (bound " << bound << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace vkt::testing::conv_check
