// Elementwise ops on c64/c128 on the cpu: Nx's promotion with complex tensors and weak
// literals, result dtypes (abs/real/imag/phase give the parts' real type), the threaded
// loops against a serial std::complex reference, real-only ops refusing complex, and
// vkt::compile giving eager's results. Values against NumPy: tests/golden.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "vkt/compile.h"
#include "vkt/vkt.h"

namespace vkt {
namespace {

using c64 = std::complex<float>;
using c128 = std::complex<double>;

Tensor c64_tensor(std::vector<c64> v) {
  return from_vector(v, &cpu());
}

TEST(ComplexElementwise, TensorPromotionFollowsNx) {
  const Tensor z = c64_tensor({{1, 2}});
  const Tensor w = from_vector<c128>({{1, 2}}, &cpu());
  EXPECT_EQ(add(z, from_vector<double>({1}, &cpu())).dtype(), DType::c128);
  EXPECT_EQ(add(z, from_vector<float>({1}, &cpu())).dtype(), DType::c64);
  EXPECT_EQ(add(z, from_vector<std::int64_t>({1}, &cpu())).dtype(), DType::c64);
  EXPECT_EQ(add(from_vector<std::uint8_t>({1}, &cpu()), z).dtype(), DType::c64);
  EXPECT_EQ(multiply(z, w).dtype(), DType::c128);
  EXPECT_EQ(multiply(as_type(z, DType::f16), w).dtype(), DType::c128);
  // c64 + f64 is computed in c128: the f64 keeps its digits.
  const Tensor sum = add(z, from_vector<double>({0.1}, &cpu()));
  EXPECT_EQ(sum.to_vector<c128>()[0], c128(1.0f + 0.1, 2.0f));
  EXPECT_EQ(divide(from_vector<std::int32_t>({3}, &cpu()), z).dtype(), DType::c64);
  EXPECT_EQ(equal(z, from_vector<float>({1}, &cpu())).dtype(), DType::u8);
}

TEST(ComplexElementwise, ComplexLiteralsAreWeakAndMakeRealTensorsComplex) {
  const Tensor z = c64_tensor({{1, 2}, {-3, 0.5f}});
  const Tensor a = add(z, c64(1, 2));
  EXPECT_EQ(a.dtype(), DType::c64);
  EXPECT_EQ(a.to_vector<c64>(), (std::vector<c64>{{2, 4}, {-2, 2.5f}}));
  // A double-precision literal stays weak towards c64.
  EXPECT_EQ(subtract(z, c128(0.5, 0)).dtype(), DType::c64);
  // A complex literal with a real tensor: c64 (f64: c128), as Nx.
  const Tensor x = from_vector<float>({2, -1}, &cpu());
  const Tensor m = multiply(x, Scalar(c128(0, 1)));
  EXPECT_EQ(m.dtype(), DType::c64);
  EXPECT_EQ(m.to_vector<c64>(), (std::vector<c64>{{0, 2}, {0, -1}}));
  EXPECT_EQ(add(as_type(x, DType::f64), c64(0, 1)).dtype(), DType::c128);
  EXPECT_EQ(add(from_vector<std::int32_t>({1}, &cpu()), c64(0, 1)).dtype(), DType::c64);
  // Real literals with complex tensors keep the complex type.
  EXPECT_EQ(multiply(z, 2.5).dtype(), DType::c64);
  EXPECT_EQ(pow(z, 2).to_vector<c64>()[0], c64(-3, 4));
  EXPECT_EQ(pow(c64(0, 1), z).dtype(), DType::c64);
  EXPECT_EQ(equal(z, c64(1, 2)).to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{1, 0}));
}

TEST(ComplexElementwise, PartsGiveTheRealTypeAndOthersKeepComplex) {
  const Tensor z = c64_tensor({{3, -4}, {-0.0f, 0}});
  EXPECT_EQ(abs(z).dtype(), DType::f32);
  EXPECT_EQ(abs(z).to_vector<float>(), (std::vector<float>{5, 0}));
  EXPECT_EQ(real(z).to_vector<float>(), (std::vector<float>{3, -0.0f}));
  EXPECT_EQ(imag(z).to_vector<float>(), (std::vector<float>{-4, 0}));
  EXPECT_FLOAT_EQ(phase(z).to_vector<float>()[0], std::atan2(-4.0f, 3.0f));
  EXPECT_FLOAT_EQ(phase(z).to_vector<float>()[1], std::atan2(0.0f, -0.0f));  // pi
  EXPECT_EQ(conjugate(z).to_vector<c64>(), (std::vector<c64>{{3, 4}, {-0.0f, -0.0f}}));
  EXPECT_EQ(sign(z).to_vector<c64>(), (std::vector<c64>{{0.6f, -0.8f}, {0, 0}}));
  const Tensor w = as_type(z, DType::c128);
  EXPECT_EQ(abs(w).dtype(), DType::f64);
  EXPECT_EQ(phase(w).dtype(), DType::f64);
  EXPECT_EQ(exp(w).dtype(), DType::c128);
  EXPECT_EQ(is_nan(w).dtype(), DType::u8);
  EXPECT_EQ(logical_not(w).to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{0, 1}));
}

// An infinite part makes |z| infinite beside any NaN, a signalling one too (glibc's hypot
// gives NaN for hypot(sNaN, inf); found by the fuzzer's complex stage).
TEST(ComplexElementwise, AbsOfAnInfinitePartIsInfiniteBesideAnyNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  const float snan = std::numeric_limits<float>::signaling_NaN();
  const float qnan = std::numeric_limits<float>::quiet_NaN();
  const Tensor z = c64_tensor({{snan, -inf}, {inf, snan}, {qnan, inf}, {snan, 1}});
  const std::vector<float> got = abs(z).to_vector<float>();
  EXPECT_EQ(got[0], inf);
  EXPECT_EQ(got[1], inf);
  EXPECT_EQ(got[2], inf);
  EXPECT_TRUE(std::isnan(got[3]));
  const double wide_inf = std::numeric_limits<double>::infinity();
  const double wide_snan = std::numeric_limits<double>::signaling_NaN();
  const std::vector<c128> w = {{wide_snan, wide_inf}, {-wide_inf, wide_snan}};
  const std::vector<double> wide = abs(from_vector(w, &cpu())).to_vector<double>();
  EXPECT_EQ(wide[0], wide_inf);
  EXPECT_EQ(wide[1], wide_inf);
}

// Sizes past the loops' grain, so several threads each take a range; every element must
// equal the serial std::complex answer (the kernels call the same functions).
TEST(ComplexElementwise, ThreadedLoopsMatchASerialReference) {
  const std::size_t n = 1 << 18;
  std::vector<c128> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / static_cast<double>(n);
    a[i] = {3 * t - 1, 0.5 - t};
    b[i] = {1 + t, static_cast<double>(i % 7) - 3};
  }
  const Tensor ta = from_vector(a, &cpu()), tb = from_vector(b, &cpu());
  const std::vector<c128> e = exp(ta).to_vector<c128>();
  const std::vector<c128> s = add(ta, tb).to_vector<c128>();
  const std::vector<double> m = abs(tb).to_vector<double>();
  // Broadcast along the inner axis: every row adds the same vector.
  const std::vector<c128> r =
      add(reshape(ta, {512, 512}),
          from_vector(std::vector<c128>(b.begin(), b.begin() + 512), &cpu()))
          .to_vector<c128>();
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(e[i], std::exp(a[i])) << i;
    ASSERT_EQ(s[i], a[i] + b[i]) << i;
    ASSERT_EQ(m[i], std::hypot(b[i].real(), b[i].imag())) << i;
    ASSERT_EQ(r[i], a[i] + b[i % 512]) << i;
  }
}

// Ops the op table marks real-only (or integer-only) refuse complex with a TypeError that
// names the op and the dtype, and the process stays usable.
TEST(ComplexElementwise, RealOnlyOpsRefuseComplexNamingTheOp) {
  const Tensor z = c64_tensor({{1, 2}});
  const std::vector<std::pair<std::string, std::function<Tensor()>>> cases = {
      {"erf", [&] { return erf(z); }},
      {"floor", [&] { return floor(z); }},
      {"bitwise_not", [&] { return bitwise_not(z); }},
      {"atan2", [&] { return atan2(z, z); }},
      {"remainder", [&] { return remainder(z, 2.0); }},
      {"less", [&] { return less(from_vector<float>({1}, &cpu()), z); }},
      {"max", [&] { return max(z, c64(0, 1)); }},
      {"min", [&] { return min(from_vector<double>({1}, &cpu()), c64(0, 1)); }},
  };
  for (const auto& [name, run] : cases) {
    try {
      run();
      ADD_FAILURE() << "expected TypeError from " << name;
    } catch (const TypeError& e) {
      EXPECT_NE(std::string(e.what()).find("[" + name + "]"), std::string::npos) << e.what();
      const std::string what = e.what();
      EXPECT_TRUE(what.find("c64") != std::string::npos || what.find("c128") != std::string::npos)
          << what;
    }
  }
  EXPECT_EQ(add(z, z).to_vector<c64>()[0], c64(2, 4));
}

// Compiled graphs over complex tensors run op by op (no complex fusion yet) and give eager's
// bits, literals and the real-typed ops included.
TEST(ComplexElementwise, CompiledGraphsEqualEager) {
  auto program = [](const Tensor& z, const Tensor& x) {
    const Tensor y = add(multiply(exp(z), c64(0.5f, -1)), x);
    return std::make_pair(divide(y, add(abs(z), 1.0f)), phase(sqrt(y)));
  };
  auto f = compile(program);
  std::vector<c64> zv(3000);
  std::vector<float> xv(3000);
  for (std::size_t i = 0; i < zv.size(); ++i) {
    zv[i] = {static_cast<float>(i % 13) * 0.25f - 1.5f, static_cast<float>(i % 5) - 2};
    xv[i] = static_cast<float>(i) * 1e-3f;
  }
  const Tensor z = from_vector(zv, {30, 100}, &cpu());
  const Tensor x = from_vector(xv, {30, 100}, &cpu());
  LedgerScope scope;
  const auto [a, b] = f(z, x);
  EXPECT_EQ(scope.delta().traces, 1u);
  EXPECT_EQ(scope.delta().kernel_compiles, 0u);  // the three complex groups run op by op
  const auto [ea, eb] = program(z, x);
  EXPECT_EQ(a.dtype(), DType::c64);
  EXPECT_EQ(b.dtype(), DType::f32);
  EXPECT_EQ(a.to_bytes(), ea.to_bytes());
  EXPECT_EQ(b.to_bytes(), eb.to_bytes());
  // A real graph next to it still compiles its fused group.
  auto g = compile([](const Tensor& t) { return exp(add(t, 1.0f)); });
  EXPECT_EQ(g(x).to_bytes(), exp(add(x, 1.0f)).to_bytes());
  EXPECT_EQ(scope.delta().kernel_compiles, 1u);
}

}  // namespace
}  // namespace vkt
