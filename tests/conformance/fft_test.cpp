// fft / ifft on the device (VkFFT) against the cpu backend (kissfft): c64 and c128 (where the
// device has f64), every length of the golden set, the innermost, a middle and the outermost
// axis, batches, padded, cropped and real inputs, rfft, fft2; the native path runs with no
// fallback; irfft falls back.
#include "vulkan/ops/fft.h"

#include <gtest/gtest.h>

#include <clocale>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/settings.h"
#include "conformance/fixture.h"
#include "support/fft_check.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

std::vector<DType> complex_dtypes() {
  std::vector<DType> out = {DType::c64};
  if (static_cast<vk::VulkanBackend&>(vulkan()).dtype_supported(DType::c128)) {
    out.push_back(DType::c128);
  }
  return out;
}

class Fft : public VulkanTest {
 protected:
  // One transform on the device, natively, against the cpu's.
  void check_native(const Tensor& x, bool inverse, std::int64_t axis) {
    const std::int64_t rank = x.rank();
    const std::int64_t n = x.shape()[static_cast<std::size_t>(axis < 0 ? axis + rank : axis)];
    SCOPED_TRACE(std::string(inverse ? "ifft " : "fft ") + std::string(dtype_name(x.dtype())) +
                 " " + shape_str(x.shape()) + " axis " + std::to_string(axis));
    const Tensor want = inverse ? ifft(x, std::nullopt, axis) : fft(x, std::nullopt, axis);
    const Tensor gx = transfer(x, gpu());
    LedgerScope scope;
    const Tensor got = inverse ? ifft(gx, std::nullopt, axis) : fft(gx, std::nullopt, axis);
    EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
    EXPECT_EQ(&got.backend(), &gpu());
    EXPECT_TRUE(spectra_close(complex_values(got), complex_values(want), x.dtype(), n));
  }
};

// VkFFT switches to the "C" locale while it prints a plan's shaders; a process under another
// locale (Python's C.UTF-8) once got it back from freed memory (ASan's use-after-free).
TEST_F(Fft, PlansKeepTheProcessLocale) {
  const std::string before = std::setlocale(LC_ALL, nullptr);
  if (std::setlocale(LC_ALL, "C.UTF-8") == nullptr) GTEST_SKIP() << "no C.UTF-8 locale here";
  const std::string wanted = std::setlocale(LC_ALL, nullptr);
  // A length no other test plans, so VkFFT makes a plan now.
  check_native(complex_tensor(random_pairs(2 * 4093, 4093), DType::c64, {2, 4093}), false, -1);
  EXPECT_EQ(std::string(std::setlocale(LC_ALL, nullptr)), wanted);
  std::setlocale(LC_ALL, before.c_str());
}

TEST_F(Fft, EveryLengthInnerAxis) {
  for (DType d : complex_dtypes()) {
    // The golden set's lengths, and large primes (VkFFT's Bluestein path).
    for (std::int64_t n : {1, 2, 3, 5, 7, 8, 12, 16, 17, 64, 97, 100, 1000, 4096, 1009, 4099}) {
      const Tensor x =
          complex_tensor(random_pairs(3 * n, static_cast<std::uint32_t>(n)), d, {3, n});
      check_native(x, false, -1);
      check_native(x, true, -1);
    }
  }
}

TEST_F(Fft, OuterAndMiddleAxes) {
  for (DType d : complex_dtypes()) {
    for (std::int64_t n : {2, 7, 16, 17, 100}) {
      const Tensor x = complex_tensor(random_pairs(n * 5 * 3, 5), d, {n, 5, 3});
      check_native(x, false, 0);
      check_native(x, true, 0);
      const Tensor y = complex_tensor(random_pairs(4 * n * 6, 6), d, {4, n, 6});
      check_native(y, false, 1);
      check_native(y, true, 1);
    }
  }
}

TEST_F(Fft, LargeBatchAndLongLine) {
  check_native(complex_tensor(random_pairs(4096 * 64, 8), DType::c64, {4096, 64}), false, -1);
  check_native(complex_tensor(random_pairs(1 << 18, 9), DType::c64, {1 << 18}), false, -1);
}

// Outputs with a buffer of their own are transformed in place after the input's conversion
// (here: padded from 1000 to 1024 points), the plan rebinding to each call's buffer: small
// blocks (block_mb=1) make these tensors dedicated. Transforms of different tensors
// queued back to back, then read, each match the cpu; the rebinding waits for the batch that
// used the plan (validation would flag a set rewritten in use).
TEST_F(Fft, DedicatedOutputsInPlace) {
  std::optional<OverrideScope> small_blocks(std::in_place, "block_mb=1");
  std::vector<Tensor> inputs, on_device, results;
  for (std::uint32_t i = 0; i < 3; ++i) {
    inputs.push_back(complex_tensor(random_pairs(64 * 1000, 20 + i), DType::c64, {64, 1000}));
    on_device.push_back(transfer(inputs.back(), gpu()));
  }
  (void)fft(on_device[0], 1024);  // makes the plan
  gpu().synchronize();
  LedgerScope scope;
  for (const Tensor& x : on_device) results.push_back(fft(x, 1024));
  // The first output reuses the freed buffer the plan was made on; each later one rebinds
  // the plan while its last use is still queued: the batch is submitted (and waited for,
  // unless the device finished it first). With a piece per op (set_flush_ops(1)) each fft
  // is submitted at its end instead, the last one too.
  const std::uint64_t submits = vk::testing::flush_ops() == 1 ? 3u : 2u;
  EXPECT_EQ(scope.delta().submits, submits) << scope.delta().to_string();
  EXPECT_LE(scope.delta().waits, 2u);
  EXPECT_EQ(scope.delta().fallbacks, 0u);
  results.push_back(ifft(results[0]));
  small_blocks.reset();
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(spectra_close(complex_values(results[i]), complex_values(fft(inputs[i], 1024)),
                              DType::c64, 1024));
  }
  EXPECT_TRUE(spectra_close(complex_values(results[3]), complex_values(ifft(fft(inputs[0], 1024))),
                            DType::c64, 1024));
}

// Lines too long for one workgroup take VkFFT's multi-pass (four-step) plans: 2^21 c64 and
// 2^20 c128 points and 3 * 2^16 c64 (not a power of two), forward and inverse, against the
// cpu. Once from pooled tensors (the plan's own tensor), once with small blocks
// (block_mb=1) that make input and output buffers of their own: VkFFT then reads the
// input where it is (no copy) and writes the output, and the input is left as it was.
TEST_F(Fft, LongLinesMultiPass) {
  std::vector<std::pair<DType, std::int64_t>> lines = {{DType::c64, std::int64_t{1} << 21},
                                                       {DType::c64, std::int64_t{3} << 16}};
  if (complex_dtypes().size() > 1) lines.push_back({DType::c128, std::int64_t{1} << 20});
  for (const bool dedicated : {false, true}) {
    std::optional<OverrideScope> small_blocks;
    if (dedicated) small_blocks.emplace("block_mb=1");
    for (const auto& line : lines) {
      SCOPED_TRACE(dedicated ? "dedicated buffers" : "pooled buffers");
      const Tensor x = complex_tensor(random_pairs(line.second, 30), line.first, {line.second});
      check_native(x, false, 0);
      check_native(x, true, 0);
    }
  }
}

// A transform from an input with a buffer of its own into an output with one copies
// nothing (VkFFT reads the input buffer), keeps the input intact, and chains: the fft's
// output feeds the ifft directly, which gives the input back. Contiguous lines, and
// interleaved ones (axis 0: a strided VkFFT axis, in one pass and in two).
TEST_F(Fft, DirectFromInputBuffer) {
  const OverrideScope small_blocks("block_mb=1");
  struct Case {
    Shape shape;
    std::int64_t axis;
  };
  const Case cases[] = {{{64, 1024}, 1}, {{1024, 64}, 0}, {{8192, 16}, 0}};
  for (DType d : complex_dtypes()) {
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(dtype_name(d)) + " " + shape_str(c.shape) + " axis " +
                   std::to_string(c.axis));
      const std::int64_t n = c.shape[static_cast<std::size_t>(c.axis)];
      const Tensor x = complex_tensor(random_pairs(c.shape[0] * c.shape[1], 40), d, c.shape);
      const std::vector<std::complex<double>> before = complex_values(x);
      const Tensor gx = transfer(x, gpu());
      LedgerScope scope;
      const Tensor spectrum = fft(gx, std::nullopt, c.axis);
      const Tensor back = ifft(spectrum, std::nullopt, c.axis);
      gpu().synchronize();
      EXPECT_EQ(scope.delta().device_copies, 0u) << scope.delta().to_string();
      EXPECT_EQ(scope.delta().fallbacks, 0u);
      EXPECT_TRUE(spectra_close(complex_values(spectrum),
                                complex_values(fft(x, std::nullopt, c.axis)), d, n));
      EXPECT_TRUE(spectra_close(complex_values(back), before, d, n));
      EXPECT_EQ(complex_values(gx), before);  // bit for bit: nothing wrote the input
    }
  }
}

// Padded, cropped and real (f32, f64) inputs and rfft run natively (shaders/fft.comp moves
// the lines around VkFFT; irfft's Hermitian half is mirrored on the way in); integer and
// f16 inputs after a native as_type to f32; fft2 of native steps is native. Each gives the
// cpu's values.
TEST_F(Fft, PaddedCroppedRealAndRfft) {
  const Tensor x = complex_tensor(random_pairs(4 * 12, 3), DType::c64, {4, 12});
  std::vector<double> re = random_pairs(24, 4);
  re.resize(24);
  const Tensor r64 = from_vector(re, {2, 12});
  const Tensor r32 = as_type(r64, DType::f32);
  const Tensor s32 = as_type(multiply(r64, 50.0), DType::s32);
  const Tensor u8 = as_type(add(multiply(r64, 50.0), 60.0), DType::u8);
  const Tensor f16 = as_type(r64, DType::f16);
  struct Case {
    std::string name;
    Tensor input;
    std::function<Tensor(const Tensor&)> op;
    std::int64_t n;
    bool native;
  };
  const std::vector<Case> cases = {
      {"fft pad 20", x, [](const Tensor& t) { return fft(t, 20); }, 20, true},
      {"ifft crop 3 axis 0", x, [](const Tensor& t) { return ifft(t, 3, 0); }, 3, true},
      {"ifft pad 17 axis 0", x, [](const Tensor& t) { return ifft(t, 17, 0); }, 17, true},
      {"fft2", x, [](const Tensor& t) { return fft2(t); }, 48, true},
      {"ifft2 {8, 6}", x,
       [](const Tensor& t) {
         return ifft2(t, {8, 6});
       },
       48, true},
      {"fft f32", r32, [](const Tensor& t) { return fft(t); }, 12, true},
      {"fft f64 axis 0 pad 3", r64, [](const Tensor& t) { return fft(t, 3, 0); }, 3, true},
      {"rfft f32", r32, [](const Tensor& t) { return rfft(t); }, 12, true},
      {"rfft f32 crop 9", r32, [](const Tensor& t) { return rfft(t, 9); }, 9, true},
      {"rfft f64 pad 31", r64, [](const Tensor& t) { return rfft(t, 31); }, 31, true},
      {"rfft f32 one point", r32, [](const Tensor& t) { return rfft(t, 1); }, 1, true},
      {"fft s32", s32, [](const Tensor& t) { return fft(t); }, 12, true},
      {"rfft u8 pad 16", u8, [](const Tensor& t) { return rfft(t, 16); }, 16, true},
      {"ifft f16 axis 0", f16, [](const Tensor& t) { return ifft(t, std::nullopt, 0); }, 2, true},
      {"irfft", x, [](const Tensor& t) { return irfft(t); }, 22, true},
      {"irfft odd 7 axis 0", x, [](const Tensor& t) { return irfft(t, 7, 0); }, 7, true},
      {"irfft pad 40", x, [](const Tensor& t) { return irfft(t, 40); }, 40, true},
      {"irfft f64 length 9", r64, [](const Tensor& t) { return irfft(t, 9); }, 9, true},
      {"irfft s32 one point", s32, [](const Tensor& t) { return irfft(t, 1); }, 1, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    if (c.input.dtype() == DType::f64 &&
        !static_cast<vk::VulkanBackend&>(vulkan()).dtype_supported(DType::c128)) {
      continue;
    }
    const Tensor want = c.op(c.input);
    const Tensor g = transfer(c.input, gpu());
    LedgerScope scope;
    const Tensor got = c.op(g);
    EXPECT_EQ(scope.delta().fallbacks, c.native ? 0u : 1u) << scope.delta().to_string();
    EXPECT_EQ(got.dtype(), want.dtype());
    EXPECT_EQ(got.shape(), want.shape());
    EXPECT_TRUE(spectra_close(complex_values(got), complex_values(want),
                              to_complex_type(c.input.dtype()), c.n));
  }
}

// irfft reads only the real parts of the zero and (even length) middle points, as NumPy:
// a NaN, an infinity or a huge value in their imaginary parts changes nothing on either
// backend (found by the fuzzer's complex stage: the device read a middle point's -2.9e17i).
TEST_F(Fft, IrfftIgnoresImaginaryPartsOfZeroAndMiddlePoints) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType d : {DType::c64, DType::c128}) {
    if (!static_cast<vk::VulkanBackend&>(vulkan()).dtype_supported(d)) continue;
    SCOPED_TRACE(dtype_name(d));
    // 4 stored points: length 6 (middle point 3) and 7 (no middle point).
    const Tensor noisy = complex_tensor({0.5, nan, 3.5, -1.2e5, -3.6, 2e-27, 2, -2.9e17}, d, {4});
    const Tensor clean = complex_tensor({0.5, 0, 3.5, -1.2e5, -3.6, 2e-27, 2, 0}, d, {4});
    const Tensor even = irfft(transfer(noisy, gpu()), 6);
    EXPECT_EQ(&even.backend(), &gpu());
    EXPECT_TRUE(spectra_close(complex_values(even), complex_values(irfft(clean, 6)), d, 6));
    EXPECT_TRUE(
        spectra_close(complex_values(irfft(noisy, 6)), complex_values(irfft(clean, 6)), d, 6));
    // Odd length: point 0's imaginary part is dropped, the last stored point's is read.
    const Tensor odd_noisy = complex_tensor({0.5, nan, 3.5, -1.2e5, -3.6, 2, 2, -3}, d, {4});
    const Tensor odd_clean = complex_tensor({0.5, 0, 3.5, -1.2e5, -3.6, 2, 2, -3}, d, {4});
    EXPECT_TRUE(spectra_close(complex_values(irfft(transfer(odd_noisy, gpu()), 7)),
                              complex_values(irfft(odd_clean, 7)), d, 7));
  }
}

}  // namespace
}  // namespace vkt::testing
