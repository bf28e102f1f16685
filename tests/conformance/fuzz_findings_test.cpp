// Regression tests for what the differential fuzzer (tests/fuzz) found, one each, device
// against the cpu: f64 acosh of values past 1e154 (t * t overflowed to inf on the device),
// and pow with a signalling NaN operand (glibc's pow gave NaN for pow(sNaN, 0) and
// pow(1, sNaN), where C and the device give 1), and reduce_max over both zeros (the device
// kept -0, the cpu +0: each kept whichever its combining order met last), and on the H200
// f32 subnormals lost in f32 <-> f64 conversions (stack, select and clip of mixed dtypes),
// and rank-6 pads and strided copies whose last axis's divisor shift did not fit its word,
// and triangular_solve with infinities or NaN in b (the cpu's trsm spread NaN to elements
// that do not depend on them), and the fuzzer's flush model missing complex parts, and
// lavapipe's f64 trunc (round of -0 and of large values).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance/bits_check.h"
#include "conformance/fixture.h"
#include "conformance/flush.h"
#include "support/compare.h"
#include "support/linalg_check.h"
#include "support/op_tolerance.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class FuzzFindings : public VulkanTest {};

TEST_F(FuzzFindings, AcoshF64OfHugeValues) {
  if (!vk::testing::device_caps().float64) GTEST_SKIP() << "no shaderFloat64";
  const Tensor x = from_vector(std::vector<double>{9.6066e256, 6.62631e286, 1.7976931348623157e308,
                                                   1.5e154, 1e150, 3.0, 1.0},
                               &cpu());
  const Tensor g = acosh(transfer(x, gpu())), c = acosh(x);
  EXPECT_TRUE(tensors_close(g, c, elementwise_tolerance(DType::f64)));
  EXPECT_NEAR(c.to_vector<double>()[2], 710.47586007394386, 1e-12);
}

TEST_F(FuzzFindings, PowWithSignallingNaN) {
  const float snan = std::bit_cast<float>(std::uint32_t{0x7fa00000u});
  const float qnan = std::bit_cast<float>(std::uint32_t{0x7fc00000u});
  const Tensor a = from_vector(std::vector<float>{snan, 1.0f, qnan, 1.0f, snan, 2.0f}, &cpu());
  const Tensor b = from_vector(std::vector<float>{0.0f, snan, -0.0f, qnan, 2.0f, snan}, &cpu());
  const std::vector<float> c = pow(a, b).to_vector<float>();
  EXPECT_EQ(c[0], 1.0f);  // pow(x, 0) = 1 for any x, even a NaN (C11 F.10.4.4)
  EXPECT_EQ(c[1], 1.0f);  // pow(1, y) = 1 for any y, even a NaN
  EXPECT_EQ(c[2], 1.0f);
  EXPECT_EQ(c[3], 1.0f);
  EXPECT_TRUE(std::isnan(c[4]) && std::isnan(c[5]));
  for (DType d : {DType::f32, DType::f16, DType::bf16}) {
    const Tensor x = as_type(a, d), y = as_type(b, d);
    EXPECT_TRUE(tensors_close(pow(transfer(x, gpu()), transfer(y, gpu())), pow(x, y),
                              elementwise_tolerance(d)))
        << dtype_name(d);
  }
}

// Replay: vkt_fuzz --seed 11 --first 615442 --programs 1. max/min order -0 below +0 in every
// op (IEEE 754-2019 maximum/minimum), so the answer does not depend on the combining order.
TEST_F(FuzzFindings, MaxMinOfBothZerosIsOrderFree) {
  constexpr std::int64_t kRows = 3, kCols = 4099;  // past one 2048-element cpu block
  std::vector<float> v(static_cast<std::size_t>(kRows * kCols));
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = i % 7 == 3 ? 0.0f : (i % 5 == 1 ? -0.0f : -1.0f - static_cast<float>(i % 11));
  }
  v[0] = -0.0f;  // a row that starts with -0 and holds +0 later, and one the other way
  v[kCols] = 0.0f;
  const Tensor host = reshape(from_vector(v, &cpu()), {kRows, kCols});
  for (DType d : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
    if (d == DType::f64 && !vk::testing::device_caps().float64) continue;
    const Tensor c = as_type(host, d), g = transfer(c, gpu());
    const Tensor neg = negate(c);  // min's mirror: both zeros, other values positive
    for (const Axes& axes : {Axes{}, Axes{1}, Axes{0}}) {
      const Tensor cmax = reduce_max(c, axes), cmin = reduce_min(neg, axes);
      EXPECT_TRUE(same_bits(reduce_max(g, axes), cmax)) << dtype_name(d);
      EXPECT_TRUE(same_bits(reduce_min(transfer(neg, gpu()), axes), cmin)) << dtype_name(d);
      if (axes == Axes{0}) continue;  // a column may hold one zero only: bits compared above
      for (double m : as_type(cmax, DType::f64).to_vector<double>()) {
        if (m == 0.0) {
          EXPECT_FALSE(std::signbit(m)) << dtype_name(d);
        }
      }
      for (double m : as_type(cmin, DType::f64).to_vector<double>()) {
        if (m == 0.0) {
          EXPECT_TRUE(std::signbit(m)) << dtype_name(d);
        }
      }
    }
    EXPECT_TRUE(same_bits(cumulative_max(g, 1), cumulative_max(c, 1))) << dtype_name(d);
    EXPECT_TRUE(same_bits(window_max(g, {1, 5}), window_max(c, {1, 5}))) << dtype_name(d);
    const Tensor zeros_ab = as_type(from_vector(std::vector<float>{-0.0f, 0.0f}, &cpu()), d);
    const Tensor zeros_ba = reverse(zeros_ab);
    for (const Tensor& x : {zeros_ab, transfer(zeros_ab, gpu())}) {
      const Tensor y = x.backend().is_cpu() ? zeros_ba : transfer(zeros_ba, gpu());
      EXPECT_FALSE(std::signbit(as_type(max(x, y), DType::f64).to_vector<double>()[0]));
      EXPECT_FALSE(std::signbit(as_type(max(y, x), DType::f64).to_vector<double>()[0]));
      EXPECT_TRUE(std::signbit(as_type(min(x, y), DType::f64).to_vector<double>()[1]));
      EXPECT_TRUE(std::signbit(as_type(min(y, x), DType::f64).to_vector<double>()[1]));
    }
  }
}

// Replay: vkt_fuzz --seed 1 --first 5498 --programs 1 (lavapipe's f64 round(-0) gave +0) and
// --first 9482 (round(102964509.755) gave the value unchanged: its f64 trunc). ceil, floor and
// round are exact and keep the operand's sign, zeros and values that round to zero included.
TEST_F(FuzzFindings, RoundingOpsAreExactAndKeepTheSignOfZero) {
  const std::vector<double> v = {-0.0,
                                 0.0,
                                 -0.3,
                                 0.3,
                                 -0.5,
                                 -1.0,
                                 2.5,
                                 -2.5,
                                 -1e-300,
                                 1e300,
                                 102964509.75542887,
                                 -6830587077877.2598,
                                 -7060337107.1765461,
                                 4503599627370495.5,
                                 0.49999999999999994,
                                 -2.2250738585072014e-308,
                                 4.9e-324,
                                 -4.9e-324};
  for (DType d : {DType::f64, DType::f32, DType::f16, DType::bf16}) {
    if (d == DType::f64 && !vk::testing::device_caps().float64) continue;
    const Tensor c = as_type(from_vector(v, &cpu()), d), g = transfer(c, gpu());
    EXPECT_TRUE(same_bits(round(g), round(c))) << dtype_name(d);
    EXPECT_TRUE(same_bits(ceil(g), ceil(c))) << dtype_name(d);
    EXPECT_TRUE(same_bits(floor(g), floor(c))) << dtype_name(d);
    EXPECT_TRUE(std::signbit(as_type(round(g), DType::f64).to_vector<double>()[0]))
        << dtype_name(d);
  }
}

// Replay (H200): vkt_fuzz --seed 21 --first 391 --programs 1 (stack of f64 and f32 holding
// 1.04e-40 gave 0). A flushing device flushes float(double) and double(float) as well; the
// shaders form subnormal conversions on the bits (dtype_value.glsl).
TEST_F(FuzzFindings, ConversionsBetweenF32AndF64KeepSubnormals) {
  if (!vk::testing::device_caps().float64) GTEST_SKIP() << "no shaderFloat64";
  const std::vector<float> narrow = {1.04488e-40f, -1.4e-45f,      1.1754942e-38f, -0.0f,
                                     0.0f,         1.1754944e-38f, -3.5e-39f,      5e-42f};
  const Tensor f = from_vector(narrow, &cpu());
  EXPECT_TRUE(same_bits(as_type(transfer(f, gpu()), DType::f64), as_type(f, DType::f64)));
  const Tensor b = as_type(f, DType::bf16);
  EXPECT_TRUE(same_bits(as_type(transfer(b, gpu()), DType::f64), as_type(b, DType::f64)));
  // f64 values whose f32 is subnormal: ties to even (2^-150 -> 0, 3 * 2^-150 -> 2^-148), the
  // largest rounding up to the smallest normal, and values in between.
  const std::vector<double> wide = {std::ldexp(1.0, -150),
                                    3 * std::ldexp(1.0, -150),
                                    -std::ldexp(1.0, -149),
                                    1.1754943e-38,
                                    1e-40,
                                    -7.3e-42,
                                    std::ldexp(1.0, -151),
                                    1e-46,
                                    -0.0};
  const Tensor d = from_vector(wide, &cpu());
  const Tensor narrowed = as_type(d, DType::f32);
  EXPECT_TRUE(same_bits(as_type(transfer(d, gpu()), DType::f32), narrowed));
  EXPECT_EQ(narrowed.to_vector<float>()[1], std::ldexp(1.0f, -148));
  const Tensor g = transfer(f, gpu()), wide_on_gpu = transfer(as_type(f, DType::f64), gpu());
  EXPECT_TRUE(same_bits(stack({wide_on_gpu, g}), stack({as_type(f, DType::f64), f})));
  const Tensor pick = from_vector(std::vector<std::uint8_t>{1, 0, 1, 1, 0, 1, 0, 1}, &cpu());
  EXPECT_TRUE(same_bits(select(transfer(pick, gpu()), g, wide_on_gpu),
                        select(pick, f, as_type(f, DType::f64))));
}

// Replay (lavapipe): vkt_fuzz --seed 12 --first 439152 --programs 1. The shaders packed a
// divisor shift per axis in 6 bits of one word from axis 0, so a rank-6 view lost axis 5's
// high bits (bits 30 to 35); axis 0 needs no divisor, and axes 1..5 now fit.
TEST_F(FuzzFindings, RankSixPadAndStridedCopy) {
  const Shape shape = {1, 4, 2, 6, 5, 4};
  for (DType d : {DType::s32, DType::f32, DType::u8, DType::f64}) {
    if (d == DType::f64 && !vk::testing::device_caps().float64) continue;
    const Tensor c = as_type(iota(shape, DType::s32, std::nullopt, &cpu()), d);
    const Tensor g = transfer(c, gpu());
    const std::vector<PadAxis> config = {{0, 0, 0},   {2, -1, 1}, {1, -1, 2},
                                         {-2, -2, 0}, {-2, 1, 0}, {2, -2, 2}};
    EXPECT_TRUE(same_bits(pad(g, 200, config), pad(c, 200, config))) << dtype_name(d);
    const Axes perm = {5, 3, 1, 4, 2, 0};  // no two axes collapse: a rank-6 strided view
    const Shape big = {3, 5, 7, 6, 5, 11};
    const Tensor cb = as_type(iota(big, DType::s32, std::nullopt, &cpu()), d);
    EXPECT_TRUE(same_bits(transpose(transfer(cb, gpu()), perm), transpose(cb, perm)))
        << dtype_name(d);
  }
}

// Replays (lavapipe): vkt_fuzz --seed 101 --first 111 (and 132, 77) --programs 1, shrunk.
// OpenBLAS's trsm multiplies whole tiles, zeros included, so an infinity or NaN in one x
// gave NaN (0 * inf) in x's that do not depend on it; the device's substitution kept them.
// The cpu now solves such matrices again by substitution (src/cpu/linalg_substitution.h).
TEST_F(FuzzFindings, TriangularSolveNonFiniteOnlyWhereItDepends) {
  const float inf = INFINITY, nan = std::nanf("");
  // x u = b, u upper: x[r, 0] = b[r, 0] / u00 whatever b[r, 1] holds.
  const Tensor u = from_vector<float>({2.33925f, -0.207853f, nan, 2.92366f}, {2, 2}, &cpu());
  const Tensor b = from_vector<float>({1.4013e-45f, 1.04488e-40f, nan, 6, 4, -3.72801f, inf, nan},
                                      {4, 2}, &cpu());
  TriangularSolveOptions right;
  right.left_side = false;
  right.lower = false;
  const Tensor c = triangular_solve(u, b, right);
  EXPECT_EQ(c.to_vector<float>()[6], inf);
  EXPECT_EQ(c.to_vector<float>()[4], 4 / 2.33925f);
  EXPECT_TRUE(tensors_close(triangular_solve(transfer(u, gpu()), transfer(b, gpu()), right), c,
                            conditioned_tolerance(DType::f32, 2, 4.0, 4.0)));
  // uᵀ x = b, u upper: a forward substitution; x0 = b0 / u00 before the infinities below it.
  const Tensor u5 = as_type(
      from_vector<float>({2.48047f, -0.195923f, 0.0999146f, -0.145508f, 0.0864258f,  // row 0
                          nan,      2.70703f,   0.12915f,   -0.137695f, -0.172119f,  // row 1
                          nan,      nan,        2.08398f,   -0.176636f, 0.0821533f,  // row 2
                          nan,      nan,        nan,        2.33789f,   0.115356f,   // row 3
                          nan,      nan,        nan,        nan,        2.21484f},
                         {1, 5, 5}, &cpu()),
      DType::f16);
  const Tensor b5 =
      as_type(from_vector<float>({-1.86426f, 1, -inf, -inf, -inf}, {1, 5, 1}, &cpu()), DType::f16);
  TriangularSolveOptions transposed;
  transposed.lower = false;
  transposed.transform_a = TriangularTransform::transpose;
  const Tensor c5 = triangular_solve(u5, b5, transposed);
  const std::vector<double> x = as_doubles(c5);
  EXPECT_TRUE(std::isfinite(x[0]) && std::isfinite(x[1])) << x[0] << " " << x[1];
  EXPECT_NEAR(x[0], -1.86426 / 2.48047, 2e-3);
  EXPECT_TRUE(
      tensors_close(triangular_solve(transfer(u5, gpu()), transfer(b5, gpu()), transposed), c5));
}

// The H200 (flushing f32 subnormals) gave 0 for a c64 outer product whose operand held a
// subnormal real part, where the cpu gave -2.25e-20: the flush is allowed, but the fuzzer's
// flushed answer left complex tensors as they were, so it called the flushed result a mismatch
// (seed 52, programs 562591, 750003, 812547). Each part of a complex tensor flushes.
TEST_F(FuzzFindings, FlushedModelFlushesComplexParts) {
  const float sub = std::bit_cast<float>(0x00400000u), neg_sub = -sub;  // subnormals
  const std::vector<float> parts = {1.5f, sub, neg_sub, 2.0f, sub, neg_sub};
  const Tensor z = from_bytes(from_vector(parts).to_bytes(), DType::c64, Shape{3}, &cpu());
  const std::vector<std::byte> got = testing::flushed(z).to_bytes();
  std::vector<std::uint32_t> words(parts.size());
  std::memcpy(words.data(), got.data(), got.size());
  EXPECT_EQ(words, (std::vector<std::uint32_t>{0x3fc00000u, 0u, 0x80000000u, 0x40000000u, 0u,
                                               0x80000000u}));
  const std::vector<double> wide = {1e-310, -1e-310, 3.0, -1e-310};
  const Tensor z128 = from_bytes(from_vector(wide).to_bytes(), DType::c128, Shape{2}, &cpu());
  const std::vector<std::byte> got128 = testing::flushed(z128).to_bytes();
  std::vector<double> back(wide.size());
  std::memcpy(back.data(), got128.data(), got128.size());
  EXPECT_EQ(std::bit_cast<std::uint64_t>(back[0]), 0u);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(back[1]), 0x8000000000000000ull);
  EXPECT_EQ(back[2], 3.0);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(back[3]), 0x8000000000000000ull);
}

}  // namespace
}  // namespace vkt::testing
