// fft / ifft on the device (VkFFT) against the cpu backend (kissfft): c64 and c128 (where the
// device has f64), every length of the golden set, the innermost, a middle and the outermost
// axis, batches; the native path runs with no fallback. rfft / irfft / fft2, padded and
// real inputs give the cpu's values whatever path they take.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "support/fft_check.h"
#include "vulkan/backend.h"

namespace vkt::testing {
namespace {

std::vector<double> pairs(std::int64_t count, std::uint32_t seed) {
  std::vector<double> v(static_cast<std::size_t>(2 * count));
  std::uint32_t s = seed * 2654435761u + 12345u;
  for (double& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<double>(s >> 8) / static_cast<double>(1u << 23) - 1.0;
  }
  return v;
}

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

TEST_F(Fft, EveryLengthInnerAxis) {
  for (DType d : complex_dtypes()) {
    // The golden set's lengths, and large primes (VkFFT's Bluestein path).
    for (std::int64_t n : {1, 2, 3, 5, 7, 8, 12, 16, 17, 64, 97, 100, 1000, 4096, 1009, 4099}) {
      const Tensor x = complex_tensor(pairs(3 * n, static_cast<std::uint32_t>(n)), d, {3, n});
      check_native(x, false, -1);
      check_native(x, true, -1);
    }
  }
}

TEST_F(Fft, OuterAndMiddleAxes) {
  for (DType d : complex_dtypes()) {
    for (std::int64_t n : {2, 7, 16, 17, 100}) {
      const Tensor x = complex_tensor(pairs(n * 5 * 3, 5), d, {n, 5, 3});
      check_native(x, false, 0);
      check_native(x, true, 0);
      const Tensor y = complex_tensor(pairs(4 * n * 6, 6), d, {4, n, 6});
      check_native(y, false, 1);
      check_native(y, true, 1);
    }
  }
}

TEST_F(Fft, LargeBatchAndLongLine) {
  check_native(complex_tensor(pairs(4096 * 64, 8), DType::c64, {4096, 64}), false, -1);
  check_native(complex_tensor(pairs(1 << 18, 9), DType::c64, {1 << 18}), false, -1);
}

// Outputs with a buffer of their own are transformed in place, the plan rebinding to each
// call's buffer: small blocks (VKT_VK_BLOCK_MB=1) make these tensors dedicated. Transforms
// of different tensors queued back to back, then read, each match the cpu; the rebinding
// waits for the batch that used the plan (validation would flag a set rewritten in use).
TEST_F(Fft, DedicatedOutputsInPlace) {
  setenv("VKT_VK_BLOCK_MB", "1", 1);
  std::vector<Tensor> inputs, on_device, results;
  for (std::uint32_t i = 0; i < 3; ++i) {
    inputs.push_back(complex_tensor(pairs(64 * 1024, 20 + i), DType::c64, {64, 1024}));
    on_device.push_back(transfer(inputs.back(), gpu()));
  }
  (void)fft(on_device[0]);  // makes the plan
  gpu().synchronize();
  LedgerScope scope;
  for (const Tensor& x : on_device) results.push_back(fft(x));
  // The first output reuses the freed buffer the plan was made on; each later one rebinds
  // the plan while its last use is still queued: the batch is submitted (and waited for,
  // unless the device finished it first).
  EXPECT_EQ(scope.delta().submits, 2u) << scope.delta().to_string();
  EXPECT_LE(scope.delta().waits, 2u);
  EXPECT_EQ(scope.delta().fallbacks, 0u);
  results.push_back(ifft(results[0]));
  unsetenv("VKT_VK_BLOCK_MB");
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(spectra_close(complex_values(results[i]), complex_values(fft(inputs[i])),
                              DType::c64, 1024));
  }
  EXPECT_TRUE(
      spectra_close(complex_values(results[3]), complex_values(inputs[0]), DType::c64, 1024));
}

// The composed and non-native forms: the cpu's values whatever path they take.
TEST_F(Fft, ComposedFormsMatchCpu) {
  const Tensor x = complex_tensor(pairs(4 * 12, 3), DType::c64, {4, 12});
  const Tensor gx = transfer(x, gpu());
  auto same = [&](const Tensor& got, const Tensor& want, std::int64_t n) {
    EXPECT_EQ(got.dtype(), want.dtype());
    EXPECT_EQ(got.shape(), want.shape());
    EXPECT_TRUE(spectra_close(complex_values(got), complex_values(want), DType::c64, n));
  };
  same(fft(gx, 20), fft(x, 20), 20);
  same(ifft(gx, 5, 0), ifft(x, 5, 0), 5);
  same(fft2(gx), fft2(x), 48);
  same(ifft2(gx, {8, 6}), ifft2(x, {8, 6}), 48);
  same(irfft(gx), irfft(x), 22);
  std::vector<double> re = pairs(24, 4);
  re.resize(24);
  const Tensor r = as_type(from_vector(re, {2, 12}), DType::f32);
  const Tensor gr = transfer(r, gpu());
  same(rfft(gr), rfft(r), 12);
  same(rfft(gr, 9), rfft(r, 9), 9);
  same(fft(gr), fft(r), 12);
}

}  // namespace
}  // namespace vkt::testing
