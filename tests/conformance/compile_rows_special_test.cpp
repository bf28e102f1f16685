// vkt::compile on Vulkan: row kernels over special values. The row kernel's arithmetic
// (src/vulkan/shaders/compiled_rows_math.glsl: max/min from the integer extremes of the
// bits, a NaN lane's first NaN, the divisor decoded once per row and its slow elements redone
// after the loop, exp without its dead overflow test and scaled on the bits) must give eager's bits
// for NaN,
// +-inf, -0, subnormals, rows of -inf, quotients past div_f32's fast range and exp results
// below the normal range. The row maxima and minima are compared byte for byte (which NaN
// wins is eager's combine order); values computed from a NaN only as NaN.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "conformance/bits_check.h"
#include "conformance/fixture.h"
#include "support/compile_programs.h"
#include "vkt/compile.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class VulkanCompileRowsSpecial : public VulkanTest {
 protected:
  void TearDown() override {
    vk::testing::set_row_variant(std::nullopt);
    VulkanTest::TearDown();
  }
};

constexpr float kInf = std::numeric_limits<float>::infinity();

float nan_bits(std::uint32_t bits) {
  return std::bit_cast<float>(bits);
}

// One row per special pattern, `len` long; the columns a NaN goes to fall in one lane of
// eager's geometry (c and c + lanes) and in another lane.
std::vector<float> special_rows(std::int64_t len, std::int64_t& rows) {
  const auto n = static_cast<std::size_t>(len);
  const std::vector<float> w = wave(n);
  std::vector<std::vector<float>> r;
  r.emplace_back(n, -kInf);  // all -inf: -inf - -inf is NaN
  r.emplace_back(n, kInf);   // all +inf
  r.push_back(w);
  r.back()[n / 2] = kInf;
  r.push_back(w);
  for (std::size_t c = 0; c < n; c += 3) r.back()[c] = -kInf;
  std::size_t lanes = len >= 64 ? 32 : 1;  // eager's rows pass (compiled_rows.cpp's geometry)
  while (lanes > 1 && lanes < 256 && lanes * 8 < n) lanes *= 2;
  r.emplace_back(n, -0.0f);  // NaNs of several payloads and signs, the first in one lane
  r.back()[n - 1] = nan_bits(0x7fc00001u);
  r.back()[std::min(n - 1, lanes)] = nan_bits(0xffc00123u);
  r.back()[0] = nan_bits(0x7fd00000u);
  r.push_back(w);  // a lone negative NaN in the middle
  r.back()[n / 3] = nan_bits(0xff800001u);
  r.push_back(w);  // zeros of both signs
  for (std::size_t c = 0; c < n; ++c) r.back()[c] = c % 2 ? -0.0f : 0.0f;
  r.push_back(w);  // zeros of both signs among normal values (normal row sums and extremes)
  for (std::size_t c = 0; c < n; c += 5) r.back()[c] = c % 2 ? -0.0f : 0.0f;
  r.push_back(w);  // subnormals of both signs
  for (float& v : r.back()) v *= 1e-39f;
  r.push_back(w);  // exp down to 0, subnormals and quotients below 2^-101
  for (float& v : r.back()) v *= 40.0f;
  r.emplace_back(n);  // x - max through [-110, 0]: exp's results across the normal range's end
  for (std::size_t c = 0; c < n; ++c)
    r.back()[c] = -110.0f * static_cast<float>(c) / static_cast<float>(n);
  r.push_back(w);  // huge magnitudes: x - max overflows to -inf
  for (float& v : r.back()) v *= 1e38f;
  r.emplace_back(n, 2.5f);  // all equal
  r.emplace_back(
      n, 3e38f / static_cast<float>(n));  // a row sum past 2^126 (divisor outside the fast range)
  std::vector<float> all;
  for (const std::vector<float>& row : r) all.insert(all.end(), row.begin(), row.end());
  rows = static_cast<std::int64_t>(r.size());
  return all;
}

// Row maxima and minima (returned, so written by the row kernel) beside softmax.
std::vector<Tensor> extremes_and_softmax(const Tensor& x) {
  const Tensor top = reduce_max(x, {1}, true), bottom = reduce_min(x, {1}, true);
  const Tensor e = exp(subtract(x, top));
  return {top, bottom, divide(e, sum(e, {1}, true)), subtract(x, bottom)};
}

// Divides by per-row values of every kind: zero, subnormal, infinite, NaN, past 2^126, and
// normal ones under zeros and infinities.
std::vector<Tensor> divided_by_rows(const Tensor& x) {
  return {divide(x, sum(x, {1}, true)), divide(x, reduce_min(x, {1}, true)),
          divide(x, reduce_max(x, {1}, true))};
}

Tensor layer_norm(const Tensor& x) {
  const double len = static_cast<double>(x.shape()[1]);
  const Tensor d = subtract(x, divide(sum(x, {1}, true), len));
  const Tensor var = divide(sum(multiply(d, d), {1}, true), len);
  return multiply(d, rsqrt(add(var, 1e-5)));
}

void check_special_rows(Backend& b, DType d, const std::string& label) {
  for (std::int64_t len : {37, 100, 1000, 4096}) {
    std::int64_t rows = 0;
    const std::vector<float> v = special_rows(len, rows);
    const Tensor x = as_type(from_vector(v, {rows, len}, &b), d);
    const std::string what =
        label + " " + std::string(dtype_name(d)) + " len " + std::to_string(len);
    const std::vector<Tensor> got = compile(extremes_and_softmax)(x),
                              want = extremes_and_softmax(x);
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(got[0].to_bytes(), want[0].to_bytes()) << "row maxima " << what;
    EXPECT_EQ(got[1].to_bytes(), want[1].to_bytes()) << "row minima " << what;
    expect_same_values(got[2], want[2], "softmax " + what);
    expect_same_values(got[3], want[3], "x - min " + what);
    expect_same_values(compile(softmax_rows)(x), softmax_rows(x), "plain softmax " + what);
    const std::vector<Tensor> quotients = compile(divided_by_rows)(x), eager = divided_by_rows(x);
    for (std::size_t k = 0; k < eager.size(); ++k)
      expect_same_values(quotients[k], eager[k], "divided " + std::to_string(k) + " " + what);
    expect_same_values(compile(layer_norm)(x), layer_norm(x), "layer norm " + what);
  }
}

TEST_F(VulkanCompileRowsSpecial, SpecialValuesEqualEagerBitForBit) {
  check_special_rows(gpu(), DType::f32, "default");
  if (static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(DType::f16))
    check_special_rows(gpu(), DType::f16, "default");
}

void check_variants(Backend& b, std::initializer_list<const char*> texts) {
  for (const char* text : texts) {
    vk::testing::set_row_variant(vk::parse_row_variant(text));
    check_special_rows(b, DType::f32, text);
  }
}

// Each arithmetic key on its own, and eager's functions throughout.
TEST_F(VulkanCompileRowsSpecial, EveryArithmeticVariantEqualsEager) {
  check_variants(gpu(), {"max=combine,divide=plain,exp=plain,bounds=always", "max=combine",
                         "divide=plain", "exp=bits", "exp=plain", "bounds=always", "rare=inline"});
}

// max=bits on rolled loops and packed lanes (several of eager's lanes per invocation, each
// with its extremes).
TEST_F(VulkanCompileRowsSpecial, ArithmeticOnPackedAndRolledLanesEqualsEager) {
  check_variants(gpu(), {"lanes=64,loop=rolled", "lanes=128,wg=512", "lanes=32", "split=2",
                         "split=2,rare=inline"});
}

}  // namespace
}  // namespace vkt::testing
