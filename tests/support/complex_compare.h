// Complex (c64/c128) results against references computed in complex<double> by the test
// itself: per component, each part within rtol of the expected element's larger finite part
// (a part that cancels to near zero is held to the precision of the element, not to its own
// size) plus atol; NaN and infinity positions per part must match. Tensor against tensor:
// tensors_close (compare.h) handles complex dtypes.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "support/compare.h"
#include "vkt/vkt.h"

namespace vkt::testing {

using Complex = std::complex<double>;

// Every element as complex<double> (a real dtype gives a zero imaginary part).
inline std::vector<Complex> as_complex_values(const Tensor& t) {
  const std::vector<std::byte> bytes = t.to_bytes();
  std::vector<Complex> out(static_cast<std::size_t>(t.size()));
  visit_any_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::size_t i = 0; i < out.size(); ++i) {
      T v;
      std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
      if constexpr (is_complex_v<T>) {
        out[i] = Complex(v.real(), v.imag());
      } else {
        out[i] = Complex(static_cast<double>(static_cast<compute_t<T>>(v)), 0.0);
      }
    }
  });
  return out;
}

inline bool part_close(double a, double e, double scale, Tolerance tol) {
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (std::isinf(e) || std::isinf(a)) return a == e;
  return std::fabs(a - e) <= tol.atol + tol.rtol * scale;
}

inline ::testing::AssertionResult complex_close(const Tensor& actual,
                                                const std::vector<Complex>& expected,
                                                Tolerance tol) {
  const std::vector<Complex> a = as_complex_values(actual);
  if (a.size() != expected.size()) {
    return ::testing::AssertionFailure() << a.size() << " elements, expected " << expected.size();
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Complex e = expected[i];
    // The scale from the finite parts only (a NaN or infinite part is matched exactly).
    auto finite_abs = [](double v) { return std::isfinite(v) ? std::fabs(v) : 0.0; };
    const double scale = std::max(finite_abs(e.real()), finite_abs(e.imag()));
    if (!part_close(a[i].real(), e.real(), scale, tol) ||
        !part_close(a[i].imag(), e.imag(), scale, tol)) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << a[i] << " != expected " << e << " (rtol " << tol.rtol
             << ", atol " << tol.atol << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// Same dtype, shape and bytes: results that must be identical (movement, a fallback).
inline ::testing::AssertionResult same_bits(const Tensor& actual, const Tensor& expected) {
  if (actual.dtype() != expected.dtype() || actual.shape() != expected.shape()) {
    return ::testing::AssertionFailure()
           << dtype_name(actual.dtype()) << shape_str(actual.shape()) << " vs expected "
           << dtype_name(expected.dtype()) << shape_str(expected.shape());
  }
  const std::vector<std::byte> a = actual.to_bytes(), e = expected.to_bytes();
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != e[i]) {
      return ::testing::AssertionFailure()
             << "byte " << i << " (element " << i / itemsize(actual.dtype()) << ") differs";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace vkt::testing
