// Shared by movement_test.cpp and index_test.cpp: runs an op on cpu inputs, on the same
// inputs resident on the device (native: no fallback, the result on the device, the same
// bytes as the cpu's), and on the device with native ops off (the fallback path: the same
// bytes again). Movement and indexing move words, so results must be bit-identical.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "conformance/fixture.h"
#include "core/legacy_policy.h"
#include "vkt/ledger.h"

namespace vkt::testing {

// Deterministic bytes with every bit pattern likely (NaN, Inf, subnormals for floats).
inline Tensor random_tensor(DType d, const Shape& shape, std::uint64_t seed) {
  std::vector<std::byte> bytes(static_cast<std::size_t>(numel(shape)) * itemsize(d));
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& b : bytes) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    b = static_cast<std::byte>(x >> 56);
  }
  return from_bytes(bytes, d, shape);
}

inline Tensor s64_indices(const std::vector<std::int64_t>& v, const Shape& shape) {
  return from_vector(v, shape);
}

inline std::string describe(const std::string& op, DType d, const Shape& s) {
  return op + " " + std::string(dtype_name(d)) + " " + shape_str(s);
}

using OpFn = std::function<Tensor(const std::vector<Tensor>&)>;

class MovementCheck : public VulkanTest {
 protected:
  // Runs f on cpu inputs, natively on their device copies, and by fallback; compares bytes.
  void check(const std::string& what, const OpFn& f, const std::vector<Tensor>& cpu_inputs,
             bool any_nan = false) {
    SCOPED_TRACE(what);
    const Tensor expected = f(cpu_inputs);
    std::vector<Tensor> dev;
    for (const Tensor& t : cpu_inputs) dev.push_back(copy(t, gpu()));
    {
      LedgerScope scope;
      const Tensor g = f(dev);
      EXPECT_EQ(scope.delta().fallbacks, 0u) << scope.delta().to_string();
      EXPECT_EQ(&g.backend(), &gpu());
      expect_same(g, expected, any_nan);
    }
    set_legacy_policy({false, false});
    const Tensor fb = f(dev);
    set_legacy_policy({});
    expect_same(fb, expected, any_nan);
    ++cases_;
  }

  // Bit-identical, except that with `any_nan` two NaNs match whatever their sign and payload
  // (IEEE leaves them open for an add of two NaNs; the cpu's differ by compiler).
  static void expect_same(const Tensor& got, const Tensor& expected, bool any_nan = false) {
    ASSERT_EQ(got.dtype(), expected.dtype());
    ASSERT_EQ(got.shape(), expected.shape());
    const std::vector<std::byte> a = got.to_bytes(), b = expected.to_bytes();
    const std::size_t item = itemsize(got.dtype());
    std::size_t bad = 0, first = a.size();
    for (std::size_t i = 0; i < a.size(); i += item) {
      if (std::memcmp(&a[i], &b[i], item) == 0) continue;
      if (any_nan && is_nan_bits(got.dtype(), &a[i]) && is_nan_bits(got.dtype(), &b[i])) continue;
      first = std::min(first, i);
      ++bad;
    }
    EXPECT_EQ(bad, 0u) << "elements differ; the first at byte " << first << " of " << a.size();
  }

  static bool is_nan_bits(DType d, const std::byte* p) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, p, itemsize(d));
    switch (d) {
      case DType::f16:
        return (bits & 0x7fff) > 0x7c00;
      case DType::bf16:
        return (bits & 0x7fff) > 0x7f80;
      case DType::f32:
        return (bits & 0x7fffffff) > 0x7f800000;
      case DType::f64:
        return (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
      default:
        return false;
    }
  }

  void TearDown() override {
    VulkanTest::TearDown();
    RecordProperty("cases", cases_);
  }

  int cases_ = 0;
};

// One dtype per element width and kind: u8, s16, f16, bf16, f32, s32, f64, s64.
inline const std::vector<DType> kWidthDTypes = {DType::u8,  DType::s16, DType::f16, DType::bf16,
                                                DType::f32, DType::s32, DType::f64, DType::s64};

}  // namespace vkt::testing
