// vkt::compile on Vulkan: row groups. Reductions over the last axis and the values that
// broadcast them back along it (softmax, log-softmax, layer norm) run as one generated
// kernel per dispatch, with eager's combine order, so results equal eager Vulkan bit for bit
// (a NaN's payload aside); rows past the kernel's limit keep the multi-dispatch plan.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "conformance/fixture.h"
#include "support/compile_programs.h"
#include "vkt/compile.h"
#include "vulkan/runtime/backend.h"
#include "vulkan/runtime/testing.h"

namespace vkt::testing {
namespace {

// Tiers off: the dispatches counted here are the full row kernel's, not a first tier's or
// the unfused calls before it is replaced.
class VulkanCompileRows : public VulkanUntieredTest {};

// The reductions' axis dropped: the row values are reshaped back to {rows, 1}.
Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta) {
  const double len = static_cast<double>(x.shape()[1]);
  const Tensor mean = divide(sum(x, {1}, true), len);
  const Tensor d = subtract(x, mean);
  const Tensor var = divide(sum(multiply(d, d), {1}, true), len);
  return add(multiply(multiply(d, rsqrt(add(var, 1e-5))), gamma), beta);
}

// Equal bytes, except that any NaN equals any NaN (their payload is the one freedom).
void expect_same(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  const std::vector<double> g = as_type(got, DType::f64).to_vector<double>();
  const std::vector<double> w = as_type(want, DType::f64).to_vector<double>();
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (std::isnan(w[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << what << " at " << i;
    } else {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(g[i]), std::bit_cast<std::uint64_t>(w[i]))
          << what << " at " << i << ": " << g[i] << " vs " << w[i];
    }
  }
}

TEST_F(VulkanCompileRows, SoftmaxIsOneDispatchAndEqualsEagerForEveryRowLength) {
  // One invocation per row below 64, 32 to 256 lanes above; 4096 is the longest row.
  for (std::int64_t len : {1, 3, 31, 32, 33, 63, 64, 100, 1000, 4096}) {
    const std::int64_t rows = len >= 1000 ? 5 : 37;
    const Tensor x = from_vector(wave(static_cast<std::size_t>(rows * len)), {rows, len}, &gpu());
    auto f = compile(softmax_rows);
    const std::string what = "len " + std::to_string(len);
    expect_same(f(x), softmax_rows(x), what);
    LedgerScope scope;
    const Tensor again = f(x);
    EXPECT_EQ(scope.delta().dispatches, 1u) << what << "\n" << f.describe();
    expect_same(again, softmax_rows(x), what);
  }
}

TEST_F(VulkanCompileRows, RowsPastTheLimitKeepTheReductionPlan) {
  const std::int64_t len = vk::kMaxFusedRow + 1;
  const Tensor x = from_vector(wave(static_cast<std::size_t>(3 * len)), {3, len}, &gpu());
  auto f = compile(softmax_rows);
  expect_same(f(x), softmax_rows(x), "4097");
  LedgerScope scope;
  expect_same(f(x), softmax_rows(x), "4097");
  EXPECT_GT(scope.delta().dispatches, 2u) << f.describe();
  EXPECT_EQ(f.describe().find("row group"), std::string::npos) << f.describe();
}

TEST_F(VulkanCompileRows, LogSoftmaxWithDroppedAxesAndThreeDimensionalRows) {
  for (std::int64_t len : {7, 300}) {
    const Tensor x = from_vector(wave(static_cast<std::size_t>(40 * len)), {40, len}, &gpu());
    auto f = compile(log_softmax_dropped);
    expect_same(f(x), log_softmax_dropped(x), "log-softmax " + std::to_string(len));
    LedgerScope scope;
    f(x);
    EXPECT_EQ(scope.delta().dispatches, 1u) << f.describe();
  }
  const Tensor x3 = from_vector(wave(4 * 5 * 70), {4, 5, 70}, &gpu());
  auto f3 = compile(softmax_rows);
  expect_same(f3(x3), softmax_rows(x3), "{4, 5, 70}");
  LedgerScope scope;
  f3(x3);
  EXPECT_EQ(scope.delta().dispatches, 1u) << f3.describe();
}

TEST_F(VulkanCompileRows, LayerNormIsOneDispatch) {
  for (std::int64_t len : {1, 33, 768, 4096}) {
    const Tensor x = from_vector(wave(static_cast<std::size_t>(9 * len)), {9, len}, &gpu());
    const Tensor gamma = from_vector(wave(static_cast<std::size_t>(len)), {len}, &gpu());
    const Tensor beta = multiply(gamma, 0.5f);
    auto f = compile(layer_norm);
    const std::string what = "layer norm " + std::to_string(len);
    expect_same(f(x, gamma, beta), layer_norm(x, gamma, beta), what);
    LedgerScope scope;
    f(x, gamma, beta);
    EXPECT_EQ(scope.delta().dispatches, 1u) << what << "\n" << f.describe();
  }
}

TEST_F(VulkanCompileRows, HalfAndDoubleRowsEqualEager) {
  for (DType d : {DType::f16, DType::f64, DType::bf16}) {
    if (!static_cast<vk::VulkanBackend&>(gpu()).dtype_supported(d)) continue;
    for (std::int64_t len : {5, 200, 4096}) {
      const Tensor x =
          as_type(from_vector(wave(static_cast<std::size_t>(6 * len)), {6, len}, &gpu()), d);
      auto f = compile(softmax_rows);
      expect_same(f(x), softmax_rows(x),
                  std::string(dtype_name(d)) + " softmax " + std::to_string(len));
      const Tensor gamma = full({len}, 1.0, d, &gpu());
      auto g = compile(layer_norm);
      expect_same(g(x, gamma, gamma), layer_norm(x, gamma, gamma),
                  std::string(dtype_name(d)) + " layer norm " + std::to_string(len));
    }
  }
}

TEST_F(VulkanCompileRows, InfinitiesNaNsAndEqualRows) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  for (std::int64_t len : {3, 40, 1000}) {
    std::vector<float> v = wave(static_cast<std::size_t>(6 * len));
    for (std::int64_t c = 0; c < len; ++c) {
      v[static_cast<std::size_t>(c)] = -inf;        // all -inf: NaN out
      v[static_cast<std::size_t>(len + c)] = 2.5f;  // all equal
      v[static_cast<std::size_t>(2 * len + c)] = c == 1 ? inf : 1.0f;
      v[static_cast<std::size_t>(3 * len + c)] = c == len - 1 ? nan : -0.0f;
      v[static_cast<std::size_t>(4 * len + c)] = c % 2 ? -inf : 0.0f;
    }
    const Tensor x = from_vector(v, {6, len}, &gpu());
    expect_same(compile(softmax_rows)(x), softmax_rows(x), "softmax " + std::to_string(len));
    expect_same(compile(log_softmax_dropped)(x), log_softmax_dropped(x),
                "log-softmax " + std::to_string(len));
    // min, product, any and all over rows, and the row values returned beside the rows.
    auto others = [](const Tensor& t) {
      const Tensor lo = reduce_min(t, {1}, true);
      const Tensor scaled = multiply(subtract(t, lo), product(multiply(t, 0.01f), {1}, true));
      const Tensor flagged = select(any(is_nan(t), {1}, true), scaled, t);
      return std::vector<Tensor>{select(all(t, {1}, true), flagged, lo), lo};
    };
    const std::vector<Tensor> got = compile(others)(x), want = others(x);
    expect_same(got[0], want[0], "min/product/any/all " + std::to_string(len));
    expect_same(got[1], want[1], "row minima " + std::to_string(len));
  }
}

// Nine buffers are past what the generated kernels bind: the group runs op by op.
TEST_F(VulkanCompileRows, GroupPastTheBindingLimitRunsOpByOp) {
  const Tensor x = from_vector(wave(6 * 50), {6, 50}, &gpu());
  const Tensor a = from_vector(wave(6 * 50), {6, 50}, &gpu());
  auto prog = [](const Tensor& t, const Tensor& a1, const Tensor& a2, const Tensor& a3,
                 const Tensor& a4, const Tensor& a5, const Tensor& a6, const Tensor& a7) {
    Tensor y = softmax_rows(t);
    for (const Tensor* s : {&a1, &a2, &a3, &a4, &a5, &a6, &a7}) y = add(y, *s);
    return y;
  };
  std::vector<Tensor> in;
  for (int k = 0; k < 7; ++k) in.push_back(add(a, static_cast<float>(k)));
  auto f = compile(prog);
  expect_same(f(x, in[0], in[1], in[2], in[3], in[4], in[5], in[6]),
              prog(x, in[0], in[1], in[2], in[3], in[4], in[5], in[6]), "nine bindings");
  LedgerScope scope;
  f(x, in[0], in[1], in[2], in[3], in[4], in[5], in[6]);
  EXPECT_GT(scope.delta().dispatches, 1u) << f.describe();
}

// Without subgroup operations eager's tree starts from every lane; the row kernel's too.
TEST_F(VulkanCompileRows, SharedMemoryTreeWithoutSubgroupsEqualsEager) {
  const bool saved = vk::testing::subgroup_reductions();
  vk::testing::set_subgroup_reductions(false);
  for (std::int64_t len : {100, 4096}) {
    const Tensor x = from_vector(wave(static_cast<std::size_t>(7 * len)), {7, len}, &gpu());
    expect_same(compile(softmax_rows)(x), softmax_rows(x), "len " + std::to_string(len));
  }
  vk::testing::set_subgroup_reductions(saved);
}

TEST_F(VulkanCompileRows, DumpShowsTheRowKernelSource) {
  const Tensor x = from_vector(wave(8 * 123), {8, 123}, &gpu());
  set_compile_dump(true);
  ::testing::internal::CaptureStderr();
  auto f = compile([](const Tensor& t) { return softmax_rows(multiply(t, 1.5f)); });
  const Tensor y = f(x);
  const std::string dump = ::testing::internal::GetCapturedStderr();
  set_compile_dump(false);
  EXPECT_NE(dump.find("row group: reductions over the last axis"), std::string::npos) << dump;
  EXPECT_NE(dump.find("// vkt::compile row group"), std::string::npos) << dump;
  expect_same(y, softmax_rows(multiply(x, 1.5f)), "scaled softmax");
}

}  // namespace
}  // namespace vkt::testing
