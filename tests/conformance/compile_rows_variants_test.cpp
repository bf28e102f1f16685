// vkt::compile's row kernels under each row variant (set in process through
// vk::testing::set_row_variant): fewer invocations per row holding several of eager's lanes,
// several rows per workgroup, rolled loops. Each keeps eager's combine order, so softmax,
// log-softmax and layer norm stay eager's bit for bit (a NaN's payload aside), with and
// without subgroup shuffles, for rows that split into eager's lanes evenly or not.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "conformance/bits_check.h"
#include "conformance/fixture.h"
#include "support/compile_programs.h"
#include "vkt/compile.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

class VulkanCompileRowsVariants : public VulkanTest {
 protected:
  void TearDown() override {
    vk::testing::set_row_variant(std::nullopt);
    VulkanTest::TearDown();
  }
};

Tensor layer_norm(const Tensor& x, const Tensor& gamma) {
  const double len = static_cast<double>(x.shape()[1]);
  const Tensor d = subtract(x, divide(sum(x, {1}, true), len));
  const Tensor var = divide(sum(multiply(d, d), {1}, true), len);
  return add(multiply(multiply(d, rsqrt(add(var, 1e-5))), gamma), gamma);
}

// Rows of a wave with special rows: all -inf, an inf, a NaN, alternating -inf and 0.
Tensor rows_of(std::int64_t rows, std::int64_t len, DType d, Backend& b) {
  std::vector<float> v = wave(static_cast<std::size_t>(rows * len));
  const float inf = std::numeric_limits<float>::infinity();
  for (std::int64_t c = 0; c < len; ++c) {
    v[static_cast<std::size_t>(c)] = -inf;
    v[static_cast<std::size_t>(len + c)] = c == len / 2 ? inf : 1.0f;
    v[static_cast<std::size_t>(2 * len + c)] = c == len - 1 ? std::nanf("") : -0.0f;
    v[static_cast<std::size_t>(3 * len + c)] = c % 2 ? -inf : 0.0f;
  }
  return as_type(from_vector(v, {rows, len}, &b), d);
}

void check_variant(Backend& b, const vk::RowVariant& variant, const std::vector<std::int64_t>& lens,
                   DType d) {
  vk::testing::set_row_variant(variant);
  for (std::int64_t len : lens) {
    const std::string what =
        variant.text() + " " + std::string(dtype_name(d)) + " len " + std::to_string(len);
    const Tensor x = rows_of(11, len, d, b);
    auto f = compile(softmax_rows);
    expect_same_values(f(x), softmax_rows(x), "softmax " + what);
    LedgerScope scope;
    (void)f(x);
    EXPECT_EQ(scope.delta().dispatches, 1u) << what << "\n" << f.describe();
    expect_same_values(compile(log_softmax_dropped)(x), log_softmax_dropped(x),
                       "log-softmax " + what);
    const Tensor gamma = as_type(from_vector(wave(static_cast<std::size_t>(len)), {len}, &b), d);
    expect_same_values(compile(layer_norm)(x, gamma), layer_norm(x, gamma), "layer norm " + what);
  }
}

vk::RowVariant variant(std::uint32_t wg, std::uint32_t lanes, bool unrolled,
                       bool hold_shared = false, std::uint32_t split = 1) {
  vk::RowVariant v;
  v.workgroup = wg;
  v.max_lanes = lanes;
  v.unrolled = unrolled;
  v.hold_shared = hold_shared;
  v.split = split;
  return v;
}

// 100: 32 lanes; 1000: 128 lanes of 8 (64 and 32 invocations hold 2 and 4); 4095 and 4096:
// 256 lanes of 16, the last step short or whole.
TEST_F(VulkanCompileRowsVariants, EveryVariantEqualsEager) {
  const std::vector<std::int64_t> lens = {5, 100, 1000, 4095};
  check_variant(gpu(), variant(512, 128, true), lens, DType::f32);
  check_variant(gpu(), variant(1024, 32, false), lens, DType::f32);
  check_variant(gpu(), variant(256, 64, true), {1000, 4096}, DType::f32);
  check_variant(gpu(), variant(256, 256, false), {37, 4096}, DType::f32);
  check_variant(gpu(), variant(64, 256, true), {100, 1000}, DType::f32);  // 64 per row
  // Held in shared memory: 4096 over 256 fits 32 KiB per value only in part (layer norm's
  // three held values fall back to arrays where the device has 32 KiB).
  check_variant(gpu(), variant(256, 256, false, true), {37, 1000, 4096}, DType::f32);
  check_variant(gpu(), variant(128, 64, true, true), {100, 1000}, DType::f32);
}

// split=2: two invocations per lane of eager's, the second folding on from the first's sum
// (1000: 128 lanes of 8; 2048 and 4096: 256 lanes of 8 and 16; 4095 and 100 keep one
// invocation per lane: a short last step, or 4 elements a lane), two rows per workgroup of
// 1024, rolled loops, the tree without shuffles, and f16 and f64.
TEST_F(VulkanCompileRowsVariants, SplitLanesEqualEager) {
  const std::vector<std::int64_t> lens = {100, 1000, 2048, 4095, 4096};
  check_variant(gpu(), variant(256, 256, true, false, 2), lens, DType::f32);
  check_variant(gpu(), variant(1024, 256, true, false, 2), {1000, 4096}, DType::f32);
  check_variant(gpu(), variant(256, 256, false, false, 2), {1000, 4096}, DType::f32);
  const bool saved = vk::testing::subgroup_reductions();
  vk::testing::set_subgroup_reductions(false);
  check_variant(gpu(), variant(256, 256, true, false, 2), {1000, 4096}, DType::f32);
  vk::testing::set_subgroup_reductions(saved);
  for (DType d : {DType::f16, DType::f64}) {
    if (!static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(d)) continue;
    check_variant(gpu(), variant(256, 256, true, false, 2), {1000, 4096}, d);
  }
}

// split=4: four invocations per lane of eager's, each part folding on from the one before
// (4096: 256 lanes of 16, one row per workgroup of 1024; 1000 and 2048 keep one invocation
// per lane: 8 elements a lane are not four whole steps of four), rolled loops, the tree
// without shuffles, and f16 and f64.
TEST_F(VulkanCompileRowsVariants, FourPartLanesEqualEager) {
  const std::vector<std::int64_t> lens = {1000, 2048, 4096};
  check_variant(gpu(), variant(256, 256, true, false, 4), lens, DType::f32);
  check_variant(gpu(), variant(256, 256, false, false, 4), {4096}, DType::f32);
  const bool saved = vk::testing::subgroup_reductions();
  vk::testing::set_subgroup_reductions(false);
  check_variant(gpu(), variant(256, 256, true, false, 4), {4096}, DType::f32);
  vk::testing::set_subgroup_reductions(saved);
  for (DType d : {DType::f16, DType::f64}) {
    if (!static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(d)) continue;
    check_variant(gpu(), variant(256, 256, true, false, 4), {4096}, d);
  }
}

TEST_F(VulkanCompileRowsVariants, SharedTreeAndHalfAndDoubleRows) {
  const bool saved = vk::testing::subgroup_reductions();
  vk::testing::set_subgroup_reductions(false);
  check_variant(gpu(), variant(512, 64, false), {1000, 4096}, DType::f32);
  vk::testing::set_subgroup_reductions(saved);
  for (DType d : {DType::f16, DType::f64}) {
    if (!static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(d)) continue;
    check_variant(gpu(), variant(1024, 64, true), {300, 2048}, d);
    check_variant(gpu(), variant(256, 128, false, true), {300, 1000}, d);
  }
}

}  // namespace
}  // namespace vkt::testing
