// The float findings of issue 10 (measured on lavapipe and an H200 before the fix), one
// check each: subnormal operands of remainder/divide/pow, huge remainder quotients, sinh and
// cosh near overflow, and answers a subnormal flush changed (comparisons, logical ops, sign,
// rsqrt, all, min, multiply). Each compares the device with the cpu, bit for bit where the
// answer is exact.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance/fixture.h"
#include "conformance/flush.h"
#include "support/compare.h"

namespace vkt::testing {
namespace {

class FloatFindings : public VulkanTest {
 protected:
  static Tensor f32(std::vector<float> v) { return from_vector(v, &cpu()); }
  // op(a, b) on the device and on the cpu, as f32 values.
  static std::pair<float, float> both(Op op, float a, float b) {
    const Tensor x = f32({a}), y = f32({b});
    const float g = binary(op, transfer(x, gpu()), transfer(y, gpu())).to_vector<float>()[0];
    const float c = binary(op, x, y).to_vector<float>()[0];
    return {g, c};
  }
  static std::uint8_t gpu_predicate(Op op, float a, float b) {
    return binary(op, transfer(f32({a}), gpu()), transfer(f32({b}), gpu()))
        .to_vector<std::uint8_t>()[0];
  }
  static float gpu_unary(Op op, float a) {
    return unary(op, transfer(f32({a}), gpu())).to_vector<float>()[0];
  }
};

TEST_F(FloatFindings, RemainderWithSubnormalAndHugeQuotients) {
  const float pairs[][2] = {{2.72f, 1e-40f},  {2.1e14f, 1e-40f}, {-3e38f, 7e-45f},
                            {1e-40f, 3e-41f}, {3.4e38f, 1.1f},   {-1e-38f, 1e-45f}};
  for (const auto& p : pairs) {
    const auto [g, c] = both(Op::remainder, p[0], p[1]);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(g), std::bit_cast<std::uint32_t>(c))
        << "remainder(" << p[0] << ", " << p[1] << "): " << g << " vs cpu " << c;
  }
}

// remainder is exact, so bit-identical to the cpu's fmod: random bit patterns (every
// exponent, a quarter of them subnormal) for each float dtype.
TEST_F(FloatFindings, RemainderBitIdenticalOnRandomBits) {
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 11;
  };
  for (DType d : {DType::f32, DType::f16, DType::bf16, DType::f64}) {
    if (d == DType::f64 && !vk::testing::device_caps().float64) continue;
    const std::size_t w = itemsize(d), n = 4096;
    std::vector<std::byte> a(n * w), b(n * w);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t x = next(), y = next();
      const std::uint64_t frac_mask = w == 8            ? 0x800fffffffffffffull
                                      : w == 4          ? 0x807fffffull
                                      : d == DType::f16 ? 0x83ffull
                                                        : 0x807full;
      if (i % 4 == 1) y &= frac_mask;  // subnormal (or zero) divisor
      if (i % 4 == 2) x &= frac_mask;  // subnormal dividend
      std::memcpy(a.data() + i * w, &x, w);
      std::memcpy(b.data() + i * w, &y, w);
    }
    const Tensor ta = from_bytes(a, d, {static_cast<std::int64_t>(n)}, &cpu());
    const Tensor tb = from_bytes(b, d, {static_cast<std::int64_t>(n)}, &cpu());
    const Tensor g = binary(Op::remainder, transfer(ta, gpu()), transfer(tb, gpu()));
    const Tensor c = binary(Op::remainder, ta, tb);
    const std::vector<std::uint64_t> gb = as_bits(g), cb = as_bits(c);
    const std::vector<double> gv = as_doubles(g);
    for (std::size_t i = 0; i < n; ++i) {
      if (std::isnan(gv[i]) && std::isnan(as_doubles(c)[i])) continue;  // any NaN payload
      ASSERT_EQ(gb[i], cb[i]) << dtype_name(d) << " element " << i;
    }
  }
}

// divide, pow and atan2 never hand a subnormal operand, intermediate or result to float
// arithmetic (elementwise_math.glsl), so they match the cpu even where the device flushes.
TEST_F(FloatFindings, DivideAndPowWithSubnormals) {
  const auto [z, zc] = both(Op::divide, 0.0f, 1e-40f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(z), std::bit_cast<std::uint32_t>(zc)) << z;
  // Subnormal operands, subnormal quotients of normal operands, tiny dividends.
  for (const auto& p : std::vector<std::pair<float, float>>{{1e-40f, 3e-41f},
                                                            {1.0f, 1e-40f},
                                                            {1e-30f, 1e-40f},
                                                            {1e-40f, 1e-10f},
                                                            {5e-39f, -3e38f},
                                                            {1e-30f, 1e10f},
                                                            {-3e-38f, 7.0f},
                                                            {1e-35f, 3.0f},
                                                            {3e38f, 0.9999999f}}) {
    const auto [g, c] = both(Op::divide, p.first, p.second);
    EXPECT_TRUE(g == c || std::fabs(g - c) <= 1.2e-7 * std::fabs(c) + 1.5e-45)
        << p.first << " / " << p.second << ": " << g << " vs cpu " << c;
  }
  // pow of a subnormal base (the H200: pow(1e-40, 0.5) gave 2^-75, a flushed |x|), of a
  // subnormal exponent, and with subnormal results.
  for (const auto& p : std::vector<std::pair<float, float>>{{1e-40f, -0.75f},
                                                            {1e-40f, 0.5f},
                                                            {3e-42f, -0.25f},
                                                            {-1e-40f, -1.0f},
                                                            {1e-20f, 2.0f},
                                                            {-1e-13f, 3.0f},
                                                            {0.5f, 140.0f},
                                                            {3.0f, 1e-40f}}) {
    const auto [g, c] = both(Op::pow, p.first, p.second);
    EXPECT_TRUE(g == c || std::fabs(g - c) <= 2e-7 * std::fabs(c) + 1.5e-45)
        << "pow(" << p.first << ", " << p.second << "): " << g << " vs cpu " << c;
  }
  for (const auto& p : std::vector<std::pair<float, float>>{{-2.0f, 1e-40f}, {-1e-40f, 0.5f}}) {
    EXPECT_TRUE(std::isnan(both(Op::pow, p.first, p.second).first))
        << "pow(" << p.first << ", " << p.second << ")";
  }
  // atan2 with a subnormal quotient (and atan of a subnormal) is that quotient.
  for (const auto& p : std::vector<std::pair<float, float>>{{1e-40f, 1.0f}, {-1e-30f, 1e10f}}) {
    const auto [g, c] = both(Op::atan2, p.first, p.second);
    EXPECT_TRUE(g == c || std::fabs(g - c) <= 1.5e-45)
        << "atan2(" << p.first << ", " << p.second << "): " << g << " vs cpu " << c;
  }
  EXPECT_EQ(std::bit_cast<std::uint32_t>(gpu_unary(Op::atan, -1e-40f)),
            std::bit_cast<std::uint32_t>(-1e-40f));
}

TEST_F(FloatFindings, SinhCoshFiniteNearOverflow) {
  for (float x : {89.0f, -89.0f, 88.5f, 89.4f}) {
    for (Op op : {Op::sinh, Op::cosh}) {
      const Tensor a = f32({x});
      const float g = unary(op, transfer(a, gpu())).to_vector<float>()[0];
      const float c = unary(op, a).to_vector<float>()[0];
      ASSERT_TRUE(std::isfinite(c));
      EXPECT_NEAR(g, c, 1e-6 * std::fabs(c)) << op_name(op) << "(" << x << ")";
    }
  }
  if (!vk::testing::device_caps().float64) return;
  const Tensor d = from_vector(std::vector<double>{710.0, -710.4}, &cpu());
  for (Op op : {Op::sinh, Op::cosh}) {
    EXPECT_TRUE(tensors_close(unary(op, transfer(d, gpu())), unary(op, d), {1e-14, 0}))
        << op_name(op);
  }
}

TEST_F(FloatFindings, FlushDoesNotChangeDecisions) {
  EXPECT_EQ(gpu_predicate(Op::logical_xor, -1.0f, 1e-40f), 0);
  EXPECT_EQ(gpu_predicate(Op::logical_and, 1e-40f, 2.0f), 1);
  EXPECT_EQ(gpu_predicate(Op::equal, 0.0f, 1e-40f), 0);
  EXPECT_EQ(gpu_predicate(Op::less, 0.0f, 1e-45f), 1);
  EXPECT_EQ(gpu_predicate(Op::greater, -1e-45f, -0.0f), 0);
  EXPECT_EQ(gpu_predicate(Op::equal, -0.0f, 0.0f), 1);
  EXPECT_EQ(gpu_unary(Op::sign, 1e-40f), 1.0f);
  EXPECT_EQ(gpu_unary(Op::sign, -1e-40f), -1.0f);
  EXPECT_EQ(gpu_unary(Op::ceil, 1e-40f), 1.0f);
  EXPECT_EQ(gpu_unary(Op::floor, -1e-40f), -1.0f);
  EXPECT_NEAR(gpu_unary(Op::rsqrt, 1e-40f), 1.0f / std::sqrt(1e-40f), 1e14f);
  EXPECT_NEAR(gpu_unary(Op::sqrt, 1e-40f), std::sqrt(1e-40f), 1e-26f);
  EXPECT_NEAR(gpu_unary(Op::log, 1e-40f), std::log(1e-40f), 1e-5f);
  EXPECT_NEAR(gpu_unary(Op::cbrt, -1e-40f), std::cbrt(-1e-40f), 1e-19f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(gpu_unary(Op::abs, -1e-40f)),
            std::bit_cast<std::uint32_t>(1e-40f));
  EXPECT_EQ(std::bit_cast<std::uint32_t>(gpu_unary(Op::negate, 1e-40f)),
            std::bit_cast<std::uint32_t>(-1e-40f));
  const auto [m, mc] = both(Op::min, 1e-40f, 17.4f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(m), std::bit_cast<std::uint32_t>(mc)) << m;
  const auto [x, xc] = both(Op::max, -0.0f, 1e-45f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(x), std::bit_cast<std::uint32_t>(xc)) << x;
  const Tensor row = f32({1.0f, 1e-40f, -2.0f, 1e-45f});
  EXPECT_EQ(all(transfer(row, gpu())).to_vector<std::uint8_t>()[0], 1);
  EXPECT_EQ(any(transfer(f32({0.0f, -1e-45f}), gpu())).to_vector<std::uint8_t>()[0], 1);
  const float rmax = reduce_max(transfer(f32({0.0f, 1e-40f, -0.0f}), gpu())).to_vector<float>()[0];
  EXPECT_EQ(std::bit_cast<std::uint32_t>(rmax), std::bit_cast<std::uint32_t>(1e-40f));
  const std::int64_t amin =
      argmin(transfer(f32({1e-45f, 0.0f, 2e-45f}), gpu())).item<std::int64_t>();
  EXPECT_EQ(amin, 1);
}

// multiply(-422.7, 1e-40) = -4.2e-38 is a normal number: only a device that flushes the
// subnormal operand gives -0, and it must then be one without shaderDenormPreserveFloat32.
TEST_F(FloatFindings, ArithmeticOnSubnormalOperands) {
  const auto [g, c] = both(Op::multiply, -422.7f, 1e-40f);
  if (device_flushes(DType::f32)) {
    EXPECT_FALSE(vk::testing::device_caps().float_controls.preserve32);
    EXPECT_TRUE(g == c || g == 0.0f) << g;
  } else {
    EXPECT_EQ(g, c);
  }
}

}  // namespace
}  // namespace vkt::testing
