// Narrow dtypes on the device: as_type to and from every dtype in conversion.comp, bit for
// bit as the cpu converts; Nx's packed binary through uploads and reads; and ops on narrow
// tensors natively (word-moving ops on the codes, the rest in the wide type) with the cpu's
// bits and nothing in the ledger but kernels.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "conformance/fixture.h"
#include "vkt/compile.h"
#include "vulkan/runtime/backend.h"

namespace vkt::testing {
namespace {

class Narrow : public VulkanTest {
 protected:
  static bool supported(DType d) {
    return static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(d);
  }
  // Complex conversions fall back where f32 subnormals flush (conversion.cpp says why): one
  // fallback, its result on the cpu; every other conversion runs on the device.
  static std::uint64_t fallbacks_for(DType from, DType to) {
    const bool complex = is_complex(from) || is_complex(to);
    return complex && static_cast<vk::VulkanBackend&>(gpu()).flushes_f32() ? 1u : 0u;
  }
};

// Every code of a narrow dtype, in its binary.
Tensor every_code(DType d, Backend& b) {
  const int n = 1 << bit_width(d);
  std::vector<std::uint8_t> codes(static_cast<std::size_t>(n));
  for (int c = 0; c < n; ++c) codes[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(c);
  // u8 c converts to a narrow integer's code c (integers wrap); an 8-bit float is an alias.
  return bit_width(d) == 8 ? bitcast(from_vector(codes, &b), d)
                           : as_type(from_vector(codes, &b), d);
}

// Values that probe each conversion: ties of both 8-bit formats, overflow, NaN, +-0,
// +-inf, an f32 subnormal, integers past every narrow range.
Tensor probes(DType d) {
  std::vector<double> v = {0.0,   -0.0,  1.0,      -1.0,        1.0625,       1.1875, 2.5,
                           -3.5,  7.0,   8.0,      -9.0,        15.5,         16.0,   100.0,
                           448.0, 464.0, 480.0,    500.0,       57344,        61440,  61439,
                           65504, 1e-40, -1e-40,   0.001953125, 0.0009765625, 1e-5,   -1e30,
                           NAN,   -NAN,  INFINITY, -INFINITY};
  if (is_integer(d) || is_complex(d)) {
    for (double& x : v) x = std::isfinite(x) ? std::trunc(std::fmax(-1e9, std::fmin(1e9, x))) : 3;
  }
  return as_type(from_vector(v, &cpu()), d);
}

TEST_F(Narrow, AsTypeMatchesTheCpuBitForBit) {
  for (DType from : kValueDTypes) {
    if (!supported(from)) continue;
    const Tensor host = probes(from);
    const Tensor device = transfer(host, gpu());
    for (DType to : kNarrowDTypes) {
      LedgerScope scope;
      const Tensor got = as_type(device, to);
      const std::uint64_t fallbacks = fallbacks_for(from, to);
      EXPECT_EQ(scope.delta().fallbacks, fallbacks) << dtype_name(from) << " -> " << dtype_name(to);
      EXPECT_EQ(&got.backend(), fallbacks == 0 ? &gpu() : &cpu());
      EXPECT_EQ(got.to_bytes(), as_type(host, to).to_bytes())
          << dtype_name(from) << " -> " << dtype_name(to);
    }
  }
}

TEST_F(Narrow, EveryCodeConvertsToEveryDtypeAsTheCpuDoes) {
  for (DType from : kNarrowDTypes) {
    const Tensor host = every_code(from, cpu());
    const Tensor device = transfer(host, gpu());
    for (DType to : kAllDTypes) {
      if (!supported(to)) continue;
      LedgerScope scope;
      const Tensor got = as_type(device, to);
      EXPECT_EQ(scope.delta().fallbacks, fallbacks_for(from, to))
          << dtype_name(from) << " -> " << dtype_name(to);
      EXPECT_EQ(got.to_bytes(), as_type(host, to).to_bytes())
          << dtype_name(from) << " -> " << dtype_name(to);
    }
  }
}

TEST_F(Narrow, BinaryRoundTripsThroughTheDevice) {
  for (DType d : kNarrowDTypes) {
    for (std::int64_t n : {1, 3, 8, 1001}) {
      std::vector<std::byte> binary(binary_nbytes(d, n));
      for (std::size_t i = 0; i < binary.size(); ++i)
        binary[i] = static_cast<std::byte>(i * 37 + 11);
      const Tensor on_cpu = from_bytes(binary, d, {n}, &cpu());
      const Tensor on_gpu = from_bytes(binary, d, {n}, &gpu());
      EXPECT_EQ(on_gpu.to_bytes(), on_cpu.to_bytes()) << dtype_name(d) << " n=" << n;
      EXPECT_EQ(transfer(on_gpu, cpu()).to_bytes(), on_cpu.to_bytes()) << dtype_name(d);
      EXPECT_EQ(on_gpu.to_bytes(2), on_cpu.to_bytes(2)) << dtype_name(d);
    }
  }
}

TEST_F(Narrow, OpsRunNativelyWithTheCpusBits) {
  for (DType d : kNarrowDTypes) {
    const Tensor a = as_type(
        from_vector(std::vector<float>{7, -8, 3.5f, 1, -0.0f, 448, 2, 5}, {2, 4}, &cpu()), d);
    const Tensor b =
        as_type(from_vector(std::vector<float>{1, -1, 4, 0.25f, 3, 2, -6, 5}, {2, 4}, &cpu()), d);
    const Tensor ga = transfer(a, gpu()), gb = transfer(b, gpu());
    const auto both = [&](const char* what, auto&& f) {
      LedgerScope scope;
      const Tensor got = f(ga, gb);
      const LedgerCounts delta = scope.delta();
      EXPECT_EQ(delta.fallbacks, 0u) << what << " " << dtype_name(d) << delta.to_string();
      EXPECT_EQ(delta.uploads + delta.downloads, 0u) << what << " " << dtype_name(d);
      const Tensor want = f(a, b);
      EXPECT_EQ(got.dtype(), want.dtype()) << what;
      EXPECT_EQ(got.to_bytes(), want.to_bytes()) << what << " " << dtype_name(d);
    };
    both("add", [](const Tensor& x, const Tensor& y) { return add(x, y); });
    both("multiply", [](const Tensor& x, const Tensor& y) { return multiply(x, y); });
    both("max", [](const Tensor& x, const Tensor& y) { return max(x, y); });
    both("less", [](const Tensor& x, const Tensor& y) { return less(x, y); });
    both("transpose", [](const Tensor& x, const Tensor&) { return transpose(x); });
    both("reverse", [](const Tensor& x, const Tensor&) { return reverse(x, {1}); });
    both("concatenate", [](const Tensor& x, const Tensor& y) { return concatenate({x, y}, 1); });
    both("pad", [](const Tensor& x, const Tensor&) { return pad(x, 2, {{1, 0, 1}, {0, 2, 0}}); });
    both("slice", [](const Tensor& x, const Tensor&) { return slice(x, {0, 1}, {2, 2}); });
    both("select", [](const Tensor& x, const Tensor& y) { return select(x, x, y); });
    both("sort", [](const Tensor& x, const Tensor&) { return sort(x, 1); });
    both("reduce_max", [](const Tensor& x, const Tensor&) { return reduce_max(x, {1}); });
    both("sum", [](const Tensor& x, const Tensor&) { return sum(x, {0}); });
    both("dot to f32",
         [](const Tensor& x, const Tensor& y) { return dot(x, {1}, {}, y, {1}, {}, DType::f32); });
    both("full", [d](const Tensor& x, const Tensor&) { return full({3}, 5.5, d, &x.backend()); });
  }
}

TEST_F(Narrow, CompiledOnTheDeviceEqualsEager) {
  auto f = compile(
      [](const Tensor& a, const Tensor& b) { return reverse(add(multiply(a, b), a), {0}); });
  for (DType d : kNarrowDTypes) {
    const auto make = [&](std::vector<float> v) {
      return transfer(as_type(from_vector(v, {2, 3}, &cpu()), d), gpu());
    };
    const Tensor a = make({1, 2, 3, -1, 7, 0.5f}), b = make({3, -2, 1, 1, 2, 4});
    const Tensor got = f(a, b), want = reverse(add(multiply(a, b), a), {0});
    EXPECT_EQ(got.dtype(), d);
    EXPECT_EQ(&got.backend(), &gpu());
    EXPECT_EQ(got.to_bytes(), want.to_bytes()) << dtype_name(d);
  }
}

}  // namespace
}  // namespace vkt::testing
