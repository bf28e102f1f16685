// Native ops against the cpu backend for every dtype (tests run with VKT_POISON=1, so an
// element a kernel forgot to write reads as 0xFF bytes and fails the comparison).
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "conformance/fixture.h"
#include "core/dispatch.h"
#include "support/compare.h"
#include "vkt/backend/op_call.h"

namespace vkt::testing {
namespace {

class NativeOps : public VulkanTest {
 protected:
  // Asserts the op really ran natively (no fallback) and matches the cpu exactly.
  template <class F>
  void expect_native_equal(F&& op, const char* what) {
    LedgerScope scope;
    const Tensor g = op(gpu());
    EXPECT_EQ(scope.delta().fallbacks, 0u) << what << ": " << scope.delta().to_string();
    EXPECT_EQ(&g.backend(), &gpu()) << what;
    const Tensor c = op(cpu());
    EXPECT_TRUE(tensors_close(g, c, Tolerance{0, 0})) << what;
  }
};

const std::vector<Shape> kShapes = {
    {}, {0}, {1}, {7}, {3, 5}, {2, 0, 3}, {2, 3, 4, 5}, {1, 2, 1, 3, 1, 5}, {1001}};

std::string label(const char* op, DType d, const Shape& s) {
  return std::string(op) + " " + std::string(dtype_name(d)) + " " + shape_str(s);
}

TEST_F(NativeOps, FullEveryDtypeAndShape) {
  for (DType d : kRealDTypes) {
    for (const Shape& s : kShapes) {
      for (Scalar v : {Scalar(0), Scalar(-3), Scalar(2.75), Scalar(1e10), Scalar(-1e300)}) {
        expect_native_equal([&](Backend& b) { return full(s, v, d, &b); },
                            label("full", d, s).c_str());
      }
    }
  }
}

TEST_F(NativeOps, FullNanAndInfinity) {
  for (DType d : kRealDTypes) {
    for (double v : {std::nan(""), std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity()}) {
      expect_native_equal([&](Backend& b) { return full({5}, v, d, &b); },
                          label("full", d, {5}).c_str());
    }
  }
}

TEST_F(NativeOps, IotaEveryDtypeAxisAndShape) {
  for (DType d : kRealDTypes) {
    for (const Shape& s : kShapes) {
      expect_native_equal([&](Backend& b) { return iota(s, d, std::nullopt, &b); },
                          label("iota", d, s).c_str());
      for (std::int64_t a = 0; a < static_cast<std::int64_t>(s.size()); ++a) {
        expect_native_equal([&](Backend& b) { return iota(s, d, a, &b); },
                            label("iota axis", d, s).c_str());
      }
    }
  }
}

TEST_F(NativeOps, IotaPastNarrowRangesWraps) {
  for (DType d : {DType::u8, DType::s8, DType::f16, DType::bf16}) {
    expect_native_equal([&](Backend& b) { return iota({70000}, d, std::nullopt, &b); },
                        label("iota", d, {70000}).c_str());
  }
}

TEST_F(NativeOps, EyeEveryDtypeAndShape) {
  for (DType d : kRealDTypes) {
    for (const Shape& s : {Shape{1, 1}, Shape{3, 3}, Shape{2, 5}, Shape{5, 2}, Shape{0, 4},
                           Shape{2, 3, 4}, Shape{2, 1, 3, 3}}) {
      expect_native_equal([&](Backend& b) { return eye(s, d, &b); }, label("eye", d, s).c_str());
    }
  }
}

// Values that probe saturation, wrapping, rounding, NaN and infinities, then a run of
// ordinary values so the length is odd and spans several workgroups.
std::vector<double> probe_values() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {0.0,          -0.0,         0.5,           -0.5,
                           1.5,          -1.5,         2.5,           127.0,
                           128.0,        255.5,        256.0,         -128.0,
                           -129.0,       32767.0,      32768.0,       65504.0,
                           65519.0,      65520.0,      65535.7,       -32769.0,
                           2147483520.0, 2147483648.0, -2147483904.0, 4294967296.0,
                           9.2e18,       9.3e18,       2e19,          -9.3e18,
                           1e10,         -1e10,        3e38,          -3e38,
                           1e300,        -1e300,       inf,           -inf,
                           std::nan(""), 0.1,          1.0 / 3.0,     1e-5,
                           6e-8,         3.0e-5,       16777217.0,    9007199254740993.0};
  for (int i = 0; i < 1201; ++i) v.push_back((i - 600) * 37.25);
  return v;
}
std::vector<std::int64_t> probe_ints() {
  std::vector<std::int64_t> v = {0,
                                 1,
                                 -1,
                                 127,
                                 128,
                                 255,
                                 256,
                                 -128,
                                 -129,
                                 32767,
                                 32768,
                                 65535,
                                 65536,
                                 -32769,
                                 2147483647,
                                 -2147483647 - 1,
                                 4294967295,
                                 4294967296,
                                 16777217,
                                 (std::int64_t{1} << 53) + 1,
                                 std::numeric_limits<std::int64_t>::max(),
                                 std::numeric_limits<std::int64_t>::min(),
                                 123456789,
                                 -987654321};
  for (int i = 0; i < 1201; ++i) v.push_back((i - 600) * 1000003);
  return v;
}

Tensor probe_tensor(DType d) {
  return visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<T> v;
    if (is_float(d)) {
      for (double x : probe_values()) v.push_back(convert<T>(x));
    } else {
      for (std::int64_t x : probe_ints()) v.push_back(convert<T>(x));
    }
    return from_vector(v);
  });
}

TEST_F(NativeOps, AsTypeEveryDtypePair) {
  for (DType from : kRealDTypes) {
    const Tensor host = probe_tensor(from);
    const Tensor dev = transfer(host, gpu());
    for (DType to : kRealDTypes) {
      if (from == to) continue;
      LedgerScope scope;
      const Tensor g = as_type(dev, to);
      EXPECT_EQ(scope.delta().fallbacks, 0u);
      EXPECT_TRUE(tensors_close(g, as_type(host, to), Tolerance{0, 0}))
          << dtype_name(from) << " -> " << dtype_name(to);
    }
  }
}

TEST_F(NativeOps, AsTypeOfEmptyAndScalar) {
  for (const Shape& s : {Shape{}, Shape{0}, Shape{3, 0}}) {
    const Tensor h = full(s, 7, DType::s16);
    EXPECT_TRUE(tensors_close(as_type(transfer(h, gpu()), DType::f64), as_type(h, DType::f64),
                              Tolerance{0, 0}));
  }
}

TEST_F(NativeOps, CopyEveryDtype) {
  for (DType d : kRealDTypes) {
    for (std::int64_t n : {0, 1, 3, 1001}) {
      const Tensor h = as_type(iota({n}, DType::s32), d);
      const Tensor g = transfer(h, gpu());
      LedgerScope scope;
      const Tensor c = copy(g, gpu());
      EXPECT_NE(c.storage().get(), g.storage().get());
      EXPECT_EQ(scope.delta().fallbacks, 0u);
      EXPECT_TRUE(tensors_close(c, h, Tolerance{0, 0})) << dtype_name(d) << " n=" << n;
    }
  }
}

Tensor concatenate_native(const std::vector<Tensor>& parts, std::int64_t axis) {
  Shape shape = parts.at(0).shape();
  shape[static_cast<std::size_t>(axis)] = 0;
  for (const Tensor& t : parts) shape[static_cast<std::size_t>(axis)] += t.dim(axis);
  return detail::dispatch({Op::concatenate, parts, AxisParams{axis}, parts[0].dtype(), shape});
}

TEST_F(NativeOps, ConcatenateOuterAxisEveryDtype) {
  for (DType d : kRealDTypes) {
    // Odd byte sizes for the 1- and 2-byte dtypes: pieces land at unaligned offsets.
    const std::vector<Shape> shapes = {{3, 3}, {0, 3}, {1, 3}, {5, 3}};
    std::vector<Tensor> host, dev;
    std::vector<std::byte> expected;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Tensor h = as_type(iota(shapes[i], DType::s32), d);
      host.push_back(h);
      dev.push_back(transfer(h, gpu()));
      const auto b = h.to_bytes();
      expected.insert(expected.end(), b.begin(), b.end());
    }
    LedgerScope scope;
    const Tensor g = concatenate_native(dev, 0);
    EXPECT_EQ(scope.delta().fallbacks, 0u);
    EXPECT_EQ(g.shape(), (Shape{9, 3}));
    EXPECT_TRUE(g.to_bytes() == expected) << dtype_name(d);
  }
}

TEST_F(NativeOps, ConcatenateAlongAxisAfterUnitDimsIsNative) {
  const Tensor a = iota({1, 2, 3}, DType::f32, std::nullopt, &gpu());
  const Tensor b = full({1, 1, 3}, 9, DType::f32, &gpu());
  LedgerScope scope;
  const Tensor g = concatenate_native({a, b}, 1);
  EXPECT_EQ(scope.delta().fallbacks, 0u);
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{0, 1, 2, 3, 4, 5, 9, 9, 9}));
}

TEST_F(NativeOps, ChainedOpsSeeEachOthersWrites) {
  // Read-after-write inside one batch: every step reads what the previous step wrote.
  Tensor t = iota({4099}, DType::s64, std::nullopt, &gpu());
  for (DType d : {DType::f64, DType::s16, DType::f16, DType::u32, DType::bf16, DType::s64})
    t = as_type(t, d);
  const Tensor c = as_type(
      as_type(as_type(as_type(as_type(as_type(iota({4099}, DType::s64), DType::f64), DType::s16),
                              DType::f16),
                      DType::u32),
              DType::bf16),
      DType::s64);
  EXPECT_TRUE(tensors_close(t, c, Tolerance{0, 0}));
}

}  // namespace
}  // namespace vkt::testing
