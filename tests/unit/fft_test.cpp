// fft, ifft, rfft, irfft on the cpu: against a direct O(n^2) DFT in long double (an
// independent reference), round trips, result dtypes and shapes, many lines in parallel
// against one line at a time. numpy.fft's golden values are in tests/golden/fft_golden_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <vector>

#include "core/host_parallel.h"
#include "support/compare.h"
#include "support/fft_check.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using testing::complex_tensor;
using testing::complex_values;
using testing::random_pairs;
using testing::spectra_close;
using Cd = std::complex<double>;

std::vector<Cd> direct_dft(const std::vector<Cd>& x, bool inverse) {
  const std::size_t n = x.size();
  std::vector<Cd> out(n);
  const long double sign = inverse ? 1.0L : -1.0L;
  for (std::size_t k = 0; k < n; ++k) {
    std::complex<long double> acc = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const long double angle = sign * 2.0L * std::numbers::pi_v<long double> *
                                static_cast<long double>((j * k) % n) / static_cast<long double>(n);
      acc += std::complex<long double>(x[j].real(), x[j].imag()) *
             std::complex<long double>(std::cos(angle), std::sin(angle));
    }
    if (inverse) acc /= static_cast<long double>(n);
    out[k] = Cd(static_cast<double>(acc.real()), static_cast<double>(acc.imag()));
  }
  return out;
}

TEST(Fft, MatchesDirectDftEveryLength) {
  for (DType d : {DType::c64, DType::c128}) {
    // Powers of two (radix-4 passes, one radix-2 pass where log2 n is odd), kissfft's radices 2
    // to 5 and generic butterfly (primes up to 256), Bluestein (larger primes).
    for (std::int64_t n : {1,  2,  3,  4,  5,  6,   7,   8,   9,   11,  13,  16,  17,   25,     31,
                           32, 49, 60, 64, 97, 128, 243, 251, 256, 257, 509, 512, 1031, 2 * 521}) {
      SCOPED_TRACE(std::string(dtype_name(d)) + " n=" + std::to_string(n));
      const Tensor x = complex_tensor(random_pairs(n, static_cast<std::uint32_t>(n)), d, {n});
      const std::vector<Cd> in = complex_values(x);
      EXPECT_TRUE(spectra_close(complex_values(fft(x)), direct_dft(in, false), d, n));
      EXPECT_TRUE(spectra_close(complex_values(ifft(x)), direct_dft(in, true), d, n));
    }
  }
}

TEST(Fft, RoundTrips) {
  for (DType d : {DType::c64, DType::c128}) {
    for (std::int64_t n : {1, 8, 12, 97, 1000, 4096, 16384 * 3, 65537}) {
      SCOPED_TRACE(std::string(dtype_name(d)) + " n=" + std::to_string(n));
      const Tensor x = complex_tensor(random_pairs(2 * n, 7), d, {2, n});
      EXPECT_TRUE(spectra_close(complex_values(ifft(fft(x))), complex_values(x), d, n));
      EXPECT_TRUE(spectra_close(complex_values(ifft(fft(x, std::nullopt, 0), std::nullopt, 0)),
                                complex_values(x), d, 2));
    }
  }
  // irfft(rfft(x), n) == x for odd and even n.
  for (std::int64_t n : {1, 2, 7, 10, 99, 1024}) {
    SCOPED_TRACE("rfft n=" + std::to_string(n));
    std::vector<double> re = random_pairs(n, 3);
    re.resize(static_cast<std::size_t>(n));
    const Tensor x = from_vector(re, {n});
    const Tensor back = irfft(rfft(x), n);
    EXPECT_EQ(back.dtype(), DType::f64);
    EXPECT_TRUE(spectra_close(complex_values(back), complex_values(x), DType::f64, n));
  }
}

// The imaginary parts of irfft's zero and (even length) middle points are not read, as
// numpy.fft.irfft: non-finite ones leave the result finite (found by the fuzzer's complex stage).
TEST(Fft, IrfftIgnoresImaginaryPartsOfZeroAndMiddlePoints) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType d : {DType::c64, DType::c128}) {
    SCOPED_TRACE(dtype_name(d));
    const Tensor spectrum = complex_tensor({2.5, nan, 1, -2, -2, -inf}, d, {3});
    const Tensor got = irfft(spectrum, 4);
    // x[k] = (X0 + 2 Re(X1 i^k) + X2 (-1)^k) / 4.
    const std::vector<double> want = {(2.5 + 2 * 1 - 2) / 4, (2.5 + 2 * 2 + 2) / 4,
                                      (2.5 - 2 * 1 - 2) / 4, (2.5 - 2 * 2 + 2) / 4};
    EXPECT_TRUE(testing::tensors_close(got, as_type(from_vector(want, {4}), to_real_type(d))));
    // Odd length: the last stored point is not a middle one; the zero point's part is dropped.
    const Tensor odd = complex_tensor({2.5, inf, 1, -2, -2, 0.5}, d, {3});
    const Tensor odd_clean = complex_tensor({2.5, 0, 1, -2, -2, 0.5}, d, {3});
    EXPECT_TRUE(testing::tensors_close(irfft(odd, 5), irfft(odd_clean, 5)));
  }
}

TEST(Fft, DtypesAndShapes) {
  const Tensor f64 = from_vector(std::vector<double>{1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(fft(f64).dtype(), DType::c128);
  EXPECT_EQ(fft(as_type(f64, DType::f32)).dtype(), DType::c64);
  EXPECT_EQ(fft(as_type(f64, DType::f16)).dtype(), DType::c64);
  EXPECT_EQ(ifft(as_type(f64, DType::s32)).dtype(), DType::c64);
  EXPECT_EQ(rfft(as_type(f64, DType::u8)).dtype(), DType::c64);
  EXPECT_EQ(irfft(f64).dtype(), DType::f64);
  EXPECT_EQ(irfft(as_type(f64, DType::f32)).dtype(), DType::f32);
  EXPECT_EQ(fft(f64, 5, 0).shape(), (Shape{5, 2}));
  EXPECT_EQ(fft(f64, 1).shape(), (Shape{2, 1}));
  EXPECT_EQ(rfft(f64, 9).shape(), (Shape{2, 5}));
  EXPECT_EQ(irfft(f64).shape(), (Shape{2, 2}));
  EXPECT_EQ(irfft(f64, 7, 0).shape(), (Shape{7, 2}));
  EXPECT_EQ(fft2(f64, {3, 4}).shape(), (Shape{3, 4}));
  // An empty batch transforms nothing; the transform axis may be padded from empty.
  const Tensor none = from_vector(std::vector<float>{}, {0, 8});
  EXPECT_EQ(fft(none).shape(), (Shape{0, 8}));
  const Tensor zero_points = from_vector(std::vector<float>{}, {3, 0});
  const std::vector<Cd> zeros = complex_values(fft(zero_points, 4));
  ASSERT_EQ(zeros.size(), 12u);
  for (const Cd& z : zeros) EXPECT_EQ(z, Cd(0, 0));
}

TEST(Fft, IntegerInputIsConverted) {
  const Tensor x = from_vector(std::vector<std::int32_t>{1, 2, 3, 4}, {4});
  const std::vector<Cd> got = complex_values(fft(x));
  const std::vector<Cd> want = {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}};
  EXPECT_TRUE(spectra_close(got, want, DType::c64, 4));
}

// A long line alone and among as many copies as threads (each on every thread by the
// four-step split where the line exceeds L2, fft_long_line_test.cpp): the same values, and
// ifft of it returns the input.
TEST(Fft, LongSingleLineMatchesBatchedPath) {
  const std::int64_t n = 1 << 20, copies = std::max(host::max_threads(), 2);
  const std::vector<double> p = random_pairs(n, 31);
  std::vector<double> many;
  for (std::int64_t c = 0; c < copies; ++c) many.insert(many.end(), p.begin(), p.end());
  for (DType d : {DType::c64, DType::c128}) {
    SCOPED_TRACE(dtype_name(d));
    const Tensor one = complex_tensor(p, d, {1, n});
    const std::vector<Cd> single = complex_values(fft(one));
    std::vector<Cd> batched = complex_values(fft(complex_tensor(many, d, {copies, n})));
    batched.resize(static_cast<std::size_t>(n));
    EXPECT_TRUE(spectra_close(single, batched, d, n));
    EXPECT_TRUE(spectra_close(complex_values(ifft(fft(one))), complex_values(one), d, n));
    std::vector<double> re(p.begin(), p.begin() + n);
    const Tensor real = from_vector(re, {n});
    EXPECT_TRUE(
        spectra_close(complex_values(irfft(rfft(real), n)), complex_values(real), DType::f64, n));
  }
}

// Many lines (threaded), on an inner and an outer axis, equal the same lines one at a time.
// (Inputs are built from the same pairs, so no other op on complex tensors is involved.)
TEST(Fft, ManyLinesMatchOneByOne) {
  const std::int64_t rows = 300, n = 60;
  const std::vector<double> p = random_pairs(rows * n, 11);
  std::vector<double> p_t(p.size());
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t k = 0; k < n; ++k) {
      for (std::int64_t c = 0; c < 2; ++c) {
        p_t[static_cast<std::size_t>(2 * (k * rows + r) + c)] =
            p[static_cast<std::size_t>(2 * (r * n + k) + c)];
      }
    }
  }
  const std::vector<Cd> all = complex_values(fft(complex_tensor(p, DType::c128, {rows, n})));
  const std::vector<Cd> all_t =
      complex_values(fft(complex_tensor(p_t, DType::c128, {n, rows}), std::nullopt, 0));
  for (std::int64_t r = 0; r < rows; r += 37) {
    const std::vector<double> row(p.begin() + 2 * r * n, p.begin() + 2 * (r + 1) * n);
    const std::vector<Cd> one = complex_values(fft(complex_tensor(row, DType::c128, {n})));
    for (std::int64_t k = 0; k < n; ++k) {
      EXPECT_EQ(all[static_cast<std::size_t>(r * n + k)], one[static_cast<std::size_t>(k)]);
      EXPECT_EQ(all_t[static_cast<std::size_t>(k * rows + r)], one[static_cast<std::size_t>(k)]);
    }
  }
}

}  // namespace
}  // namespace vkt
