// Tensor comparison for tests: integers exact, floats within per-dtype tolerances, NaN and
// Inf positions equal. Shared by unit, golden and conformance tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

struct Tolerance {
  double rtol = 0, atol = 0;
};

// Default tolerances: f16 ~ 2^-10, bf16 ~ 2^-7, f32 a few ulp, f64 tighter.
inline Tolerance default_tolerance(DType d) {
  switch (d) {
    case DType::f16:
      return {2e-3, 1e-3};
    case DType::bf16:
      return {1.6e-2, 1e-2};
    case DType::f32:
      return {2e-5, 1e-6};
    case DType::f64:
      return {1e-12, 1e-14};
    case DType::c64:  // per part, as the real type of the parts (scaled by |z|: tensors_close)
      return default_tolerance(DType::f32);
    case DType::c128:
      return default_tolerance(DType::f64);
    default:
      return {0, 0};
  }
}

// Every element as double (exact for integers up to 2^53; 64-bit integers compared exactly
// through as_int64 below); a complex element gives its two parts, real first.
inline std::vector<double> as_doubles(const Tensor& t) {
  if (is_narrow(t.dtype())) return as_doubles(as_type(t, DType::f64));  // exact
  const std::vector<std::byte> bytes = t.to_bytes();
  if (is_complex(t.dtype())) {
    std::vector<double> parts(static_cast<std::size_t>(2 * t.size()));
    visit_complex_dtype(t.dtype(), [&](auto tag) {
      using R = typename decltype(tag)::type::value_type;
      for (std::size_t i = 0; i < parts.size(); ++i) {
        R v;
        std::memcpy(&v, bytes.data() + i * sizeof(R), sizeof(R));
        parts[i] = static_cast<double>(v);
      }
    });
    return parts;
  }
  std::vector<double> out(static_cast<std::size_t>(t.size()));
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::size_t i = 0; i < out.size(); ++i) {
      T v;
      std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
      out[i] = static_cast<double>(static_cast<compute_t<T>>(v));
    }
  });
  return out;
}

// Raw element bits (zero-extended) for exact integer comparison.
// A narrow dtype gives its codes (its storage, not Nx's packed binary).
inline std::vector<std::uint64_t> as_bits(const Tensor& t) {
  if (is_narrow(t.dtype())) return as_bits(Tensor(DType::u8, t.shape(), t.storage()));
  const std::vector<std::byte> bytes = t.to_bytes();
  const std::size_t w = itemsize(t.dtype());
  std::vector<std::uint64_t> out(static_cast<std::size_t>(t.size()), 0);
  for (std::size_t i = 0; i < out.size(); ++i) std::memcpy(&out[i], bytes.data() + i * w, w);
  return out;
}

inline ::testing::AssertionResult tensors_close(const Tensor& actual, const Tensor& expected,
                                                Tolerance tol) {
  if (actual.dtype() != expected.dtype()) {
    return ::testing::AssertionFailure() << "dtype " << dtype_name(actual.dtype())
                                         << " != expected " << dtype_name(expected.dtype());
  }
  if (actual.shape() != expected.shape()) {
    return ::testing::AssertionFailure() << "shape " << shape_str(actual.shape()) << " != expected "
                                         << shape_str(expected.shape());
  }
  if (is_integer(actual.dtype())) {
    const auto a = as_bits(actual), e = as_bits(expected);
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] != e[i]) {
        return ::testing::AssertionFailure() << "element " << i << ": " << as_doubles(actual)[i]
                                             << " != expected " << as_doubles(expected)[i];
      }
    }
    return ::testing::AssertionSuccess();
  }
  const auto a = as_doubles(actual), e = as_doubles(expected);
  // Complex parts are compared each within the tolerance scaled by |z| (the functions are
  // accurate relative to the magnitude, not to each part).
  const bool complex = is_complex(expected.dtype());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double magnitude = complex ? std::hypot(e[i & ~std::size_t{1}], e[i | 1]) : 0.0;
    const double scale =
        std::isfinite(magnitude) ? std::max(magnitude, std::fabs(e[i])) : std::fabs(e[i]);
    const bool ok = (std::isnan(a[i]) && std::isnan(e[i])) || (std::isinf(e[i]) && a[i] == e[i]) ||
                    (std::isfinite(a[i]) && std::isfinite(e[i]) &&
                     std::fabs(a[i] - e[i]) <= tol.atol + tol.rtol * scale);
    if (!ok) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << a[i] << " != expected " << e[i] << " (rtol " << tol.rtol
             << ", atol " << tol.atol << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult tensors_close(const Tensor& actual, const Tensor& expected) {
  return tensors_close(actual, expected, default_tolerance(expected.dtype()));
}

}  // namespace vkt::testing
