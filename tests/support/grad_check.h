// The gradient checker of the grad tests: f's gradient by vkt::grad against central
// differences in f64, relative to max(1, |numeric|).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::grad_check {

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

// Deterministic f64 values in [lo, hi).
inline Tensor values(const Shape& shape, double lo, double hi, std::uint32_t seed) {
  std::vector<double> v(static_cast<std::size_t>(numel(shape)));
  std::uint32_t s = seed * 2654435761u + 12345u;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = lo + (hi - lo) * (static_cast<double>(s >> 8) / static_cast<double>(1u << 24));
  }
  return from_vector<double>(v, shape, &cpu());
}

// The largest difference between `analytic` (one gradient per primal) and f's central
// differences, relative to max(1, |numeric|). f: primals -> f64 scalar.
inline double worst_error(const Fn& f, const std::vector<Tensor>& primals,
                          const std::vector<Tensor>& analytic) {
  double worst = 0;
  const double h = 1e-6;
  for (std::size_t p = 0; p < primals.size(); ++p) {
    if (!is_float(primals[p].dtype())) continue;  // no gradient flows into an integer
    std::vector<double> base = primals[p].to_vector<double>();
    const std::vector<double> got = analytic[p].to_vector<double>();
    for (std::size_t i = 0; i < base.size(); ++i) {
      auto at = [&](double delta) {
        std::vector<double> moved = base;
        moved[i] += delta;
        std::vector<Tensor> args = primals;
        args[p] = from_vector<double>(moved, primals[p].shape(), &cpu());
        return f(args).item<double>();
      };
      const double numeric = (at(h) - at(-h)) / (2 * h);
      const double err = std::abs(got[i] - numeric) / std::max(1.0, std::abs(numeric));
      if (!(err <= worst)) worst = err;  // a NaN gradient makes the worst NaN: it fails
    }
  }
  return worst;
}

// f's gradient by vkt::grad, checked against central differences.
inline void check(const std::string& what, const Fn& f, const std::vector<Tensor>& primals,
                  double tolerance = 1e-6) {
  SCOPED_TRACE(what);
  const TensorFunction wrapped = [&](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{f(a)};
  };
  const std::vector<Tensor> g = grad(wrapped, primals);
  ASSERT_EQ(g.size(), primals.size());
  for (std::size_t p = 0; p < g.size(); ++p) {
    EXPECT_EQ(g[p].shape(), primals[p].shape());
    EXPECT_EQ(g[p].dtype(), primals[p].dtype());
  }
  EXPECT_LT(worst_error(f, primals, g), tolerance);
}

}  // namespace vkt::grad_check
