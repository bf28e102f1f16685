// Helpers of the FFT tests: complex tensors from (re, im) pairs, values as complex<double>,
// and the comparison. A transform of n points computed in precision eps has an error
// whose 2-norm grows like eps * log2(n) * ||y||_2 (Cooley-Tukey's bound; kissfft's prime
// radices and VkFFT's Bluestein stay within it at these sizes): results are compared as
// ||got - want||_2 <= 8 * eps * max(1, log2 n) * ||want||_2, plus 8 * eps for a zero want.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "vkt/vkt.h"

namespace vkt::testing {

// `count` deterministic (re, im) pairs in [-1, 1), interleaved; the same for the same seed.
inline std::vector<double> random_pairs(std::int64_t count, std::uint32_t seed) {
  std::vector<double> v(static_cast<std::size_t>(2 * count));
  std::uint32_t s = seed * 2654435761u + 12345u;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<double>(s >> 8) / static_cast<double>(1u << 23) - 1.0;
  }
  return v;
}

// A c64 or c128 cpu tensor from interleaved (re, im) doubles.
inline Tensor complex_tensor(const std::vector<double>& pairs, DType d, const Shape& shape) {
  std::vector<std::byte> bytes(pairs.size() * (d == DType::c128 ? 8 : 4));
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (d == DType::c128) {
      std::memcpy(bytes.data() + 8 * i, &pairs[i], 8);
    } else {
      const auto f = static_cast<float>(pairs[i]);
      std::memcpy(bytes.data() + 4 * i, &f, 4);
    }
  }
  return from_bytes(bytes, d, shape, &cpu());
}

// Every element as complex<double> (real dtypes with imaginary part 0).
inline std::vector<std::complex<double>> complex_values(const Tensor& t) {
  const std::vector<std::byte> bytes = t.to_bytes();
  std::vector<std::complex<double>> out(static_cast<std::size_t>(t.size()));
  visit_any_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::size_t i = 0; i < out.size(); ++i) {
      T v;
      std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
      out[i] = convert<std::complex<double>>(v);
    }
  });
  return out;
}

inline double precision_eps(DType d) {
  return d == DType::c128 || d == DType::f64 ? std::numeric_limits<double>::epsilon()
                                             : std::numeric_limits<float>::epsilon();
}

inline ::testing::AssertionResult spectra_close(const std::vector<std::complex<double>>& got,
                                                const std::vector<std::complex<double>>& want,
                                                DType precision, std::int64_t n) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << "sizes differ: " << got.size() << " vs " << want.size();
  }
  double err = 0, norm = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i].real()) || !std::isfinite(got[i].imag())) {
      return ::testing::AssertionFailure() << "element " << i << " is not finite";
    }
    err += std::norm(got[i] - want[i]);
    norm += std::norm(want[i]);
  }
  const double eps = precision_eps(precision);
  const double bound =
      8 * eps * std::max(1.0, std::log2(static_cast<double>(n))) * std::sqrt(norm) + 8 * eps;
  if (std::sqrt(err) <= bound) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "||got - want|| = " << std::sqrt(err) << " > bound " << bound
         << " (||want|| = " << std::sqrt(norm) << ", n = " << n << ")";
}

}  // namespace vkt::testing
